import { describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

/*
 * Card payment in the browser at 375 px (decision 0046), through the card processor's simulator
 * (CARD_SIMULATOR): the member picks the card (offered first, credited at once), confirms, pays on
 * the processor's page with a test card and comes back to the result with the new balance; the
 * header of another open page rises without a reload. Every screen visited is checked (axe and the
 * layout guard).
 */

const e2e = useE2E({ cardSimulator: true });

const points = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));

describe.skipIf(!hasChromium)("card payment in the browser", () => {
  it("at 375 px a member buys points by card through the simulator and sees the balance rise without reload", async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.createMember(admin, "cardbuyer1", "カード 太郎");

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

    await page.getByRole("button", { name: "3,000円" }).click();
    expect(await page.getByTestId("purchase-computed-points").textContent()).toContain("1,500pt");
    await page.getByRole("button", { name: "確認画面へ進む" }).click();
    const confirmation = page.getByTestId("purchase-confirmation");
    await confirmation.waitFor();
    for (const text of ["1,500pt", "3,000円", "クレジットカード", "決済の完了後ただちに付与します"])
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

    // Back on the purchase screen: the result, with the balance the credit made.
    await page.waitForURL(/\/user\/point-purchase\?order=TX\w+&result=success/);
    await page.getByTestId("card-result-paid").waitFor();
    expect(points(await page.getByTestId("card-result-balance").textContent())).toBe(before + 1500);
    await expect
      .poll(async () => points(await page.getByLabel("所持ポイント").first().textContent()))
      .toBe(before + 1500);
    await settle(page);
    await e2e.screenshot(page, "card-purchase-result");

    // The other page, never reloaded, shows the new balance too.
    await expect.poll(async () => points(await watcherPoints()), { timeout: 15_000 }).toBe(before + 1500);
    await e2e.screen(watcher, "dashboard after a card payment");

    // The history lists the order as paid by card.
    await page.getByRole("button", { name: "ポイント購入へ戻る" }).click();
    await page.getByRole("button", { name: "確認画面へ進む" }).waitFor();
    await page
      .getByTestId("purchase-history-row")
      .filter({ hasText: "クレジットカード" })
      .getByText("支払済")
      .waitFor();
    await e2e.screen(page, "card point purchase after paying");
  });
});
