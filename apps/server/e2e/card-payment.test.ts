import { describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";

/*
 * Card payment in the browser at 375 px (decision 0046), through the card processor's simulator
 * (CARD_SIMULATOR), with a first-purchase bonus (decision 0047): an administrator sets the bonus on
 * the 購入ボーナス screen; the member sees it on the pack and the confirmation, picks the card
 * (offered first, credited at once), pays on the processor's page with a test card and comes back
 * to the result with the purchase, the bonus and the new balance; the header of another open page
 * rises without a reload. Every screen visited is checked (axe and the layout guard).
 */

const e2e = useE2E({ cardSimulator: true });

const points = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));

describe.skipIf(!hasChromium)("card payment in the browser", () => {
  it("at 375 px a member buys points by card through the simulator with a first-purchase bonus and sees the balance rise without reload", async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.createMember(admin, "cardbuyer1", "カード 太郎");

    // The administrator gives 300 pt on a first purchase, on the 購入ボーナス screen.
    const adminUi = await e2e.page(1280);
    await loginThroughUi(adminUi, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await e2e.visit(adminUi, "/admin/purchase-bonuses", "初回購入・金額別ボーナス", "purchase bonuses");
    await adminUi.getByLabel("初回購入ボーナスを付与する").check();
    const firstBonus = adminUi.getByRole("group", { name: "初回購入ボーナス", exact: true });
    await firstBonus.getByText("固定ポイント", { exact: true }).click();
    await firstBonus.getByLabel("初回購入ボーナスの固定ポイント（pt）").fill("300");
    // The preview of the packs follows the draft before it is saved.
    await adminUi.getByTestId("bonus-preview-row").filter({ hasText: "3,000円" }).getByText("+300pt").first().waitFor();
    await adminUi.getByRole("button", { name: "保存する" }).click();
    await adminUi.getByText("ボーナス設定を保存しました").waitFor();
    await settle(adminUi);
    await e2e.screen(adminUi, "purchase bonuses after saving");
    await e2e.screenshot(adminUi, "admin-purchase-bonuses");

    // A page left open on the dashboard: its header follows the balance live (decision 0031).
    const watcher = await e2e.memberPage("cardbuyer1", 375);
    const watcherPoints = () => watcher.getByLabel("所持ポイント").first().textContent();
    const before = points(await watcherPoints());

    const page = await e2e.memberPage("cardbuyer1", 375);
    await e2e.visit(page, "/user/point-purchase", "購入履歴", "card point purchase");
    const card = page.getByRole("radio", { name: /クレジットカード/ });
    await card.waitFor();
    expect(await card.isChecked()).toBe(true);
    await page.getByText("おすすめ：決済が完了するとすぐにポイントが付与されます（3Dセキュア対応）").waitFor();

    const pack = page.getByTestId("purchase-pack").filter({ hasText: "3,000円" });
    await pack.getByText("+300pt ボーナス").waitFor();
    await page.getByRole("button", { name: "3,000円" }).click();
    const computed = page.getByTestId("purchase-computed-points");
    await computed.getByText("+300pt ボーナス").waitFor();
    expect(await computed.textContent()).toContain("1,500pt");
    await page.getByRole("button", { name: "確認画面へ進む" }).click();
    const confirmation = page.getByTestId("purchase-confirmation");
    await confirmation.waitFor();
    for (const text of [
      "1,500pt",
      "3,000円",
      "クレジットカード",
      "決済の完了後ただちに付与します",
      "初回購入ボーナス：+300pt",
      "1,800pt",
    ])
      await confirmation.getByText(text).first().waitFor();
    await settle(page);
    await e2e.screenshot(page, "card-purchase-confirm");

    // To the processor's payment page (the simulator), with the signed request.
    await page.getByRole("button", { name: "カード決済ページへ進む" }).click();
    await page.waitForURL(/\/dev\/card\/checkout\?/);
    await page.getByRole("heading", { name: "カード決済" }).waitFor();
    await page.getByText("3,000円").waitFor();
    await e2e.screenshot(page, "card-simulator-page");

    // A number that is not a test card: the page says so and nothing is paid.
    await page.getByLabel("カード番号").fill("5555 5555 5555 4444");
    await page.getByRole("button", { name: "支払う" }).click();
    await page.getByRole("alert").getByText("テスト用のカード番号を入力してください。").waitFor();
    await e2e.screen(page, "card simulator page refusing a number");
    expect(points(await watcherPoints())).toBe(before);

    await page.getByLabel("カード番号").fill("4111 1111 1111 1111");
    await page.getByRole("button", { name: "支払う" }).click();

    // Back on the purchase screen: the result, with the purchase, its bonus and the balance the credit made.
    const credited = before + 1500 + 300;
    await page.waitForURL(/\/user\/point-purchase\?order=TX\w+&result=success/);
    await page.getByTestId("card-result-paid").waitFor();
    expect(await page.getByTestId("card-result-bonus").textContent()).toBe("+300pt");
    expect(points(await page.getByTestId("card-result-balance").textContent())).toBe(credited);
    await expect.poll(async () => points(await page.getByLabel("所持ポイント").first().textContent())).toBe(credited);
    await settle(page);
    await e2e.screenshot(page, "card-purchase-result");

    // The other page, never reloaded, shows the new balance too.
    await expect.poll(async () => points(await watcherPoints()), { timeout: 15_000 }).toBe(credited);
    await e2e.screen(watcher, "dashboard after a card payment");

    // The history lists the order as paid by card, with its bonus; the next order has none.
    await page.getByRole("button", { name: "ポイント購入へ戻る" }).click();
    await page.getByRole("button", { name: "確認画面へ進む" }).waitFor();
    const row = page.getByTestId("purchase-history-row").filter({ hasText: "クレジットカード" });
    await row.getByText("支払済").waitFor();
    await row.getByText("+300pt ボーナス").waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId("purchase-pack")
          .getByText(/ボーナス/)
          .count(),
      )
      .toBe(0);
    await e2e.screen(page, "card point purchase after paying");
  });
});
