import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";

/*
 * "Every message reachable, in the right state", in the browser: a member with 250
 * received and 250 sent messages pages to the oldest on 受信 and 送信 (375 px and 1280 px) and
 * searches by name; opening an unread message drops the header's count and shows 既読 to the
 * sender without a reload; a payment an administrator confirms raises the header's balance, with
 * a notice, without a reload.
 */

const e2e = useE2E();

const PASSWORD = "paging-pass-1";
const COUNT = 250;
/** The body of the n-th message: its number first, so the sealed preview line shows it too. */
const body = (n: number, to: string) =>
  `No.${String(n).padStart(3, "0")} ${to}へ、ページ送りの確認用のメッセージです。`;

async function memberPage(userID: string, width: number): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, userID, PASSWORD);
  await page.getByTestId("dashboard-points").waitFor();
  return page;
}

const headerCount = (page: Page) => page.getByTestId("header-unread-count").textContent();
const headerPoints = (page: Page) => page.getByLabel("所持ポイント").textContent();
const count = (page: Page) => page.getByTestId("mail-count").textContent();
/** Nothing wider than the screen (the page buttons included). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
/** The page buttons on one line: 前のページ and 次のページ at the same height. */
async function pagerOnOneLine(page: Page): Promise<boolean> {
  const previous = await page.getByRole("button", { name: "前のページ" }).boundingBox();
  const next = await page.getByRole("button", { name: "次のページ" }).boundingBox();
  return previous !== null && next !== null && Math.abs(previous.y - next.y) < 2;
}

/** Goes to the last page with its button and answers the last card's text. */
async function lastPage(page: Page, label: string): Promise<string> {
  await page.getByRole("button", { name: "13ページ" }).click();
  await expect.poll(() => page.getByRole("button", { name: "13ページ" }).getAttribute("aria-current")).toBe("page");
  await expect.poll(() => page.getByTestId("message-card").count()).toBe(10);
  await settle(page);
  await e2e.screenshot(page, label);
  return (await page.getByTestId("message-card").last().textContent()) ?? "";
}

describe.skipIf(!hasChromium)("every message reachable, in the right state", () => {
  const ids = { taro: "", hanako: "", jiro: "" };
  let admin = "";

  // Seeding, before the tests: a member with 250 messages received (read) and 250 sent.
  beforeAll(async () => {
    admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    for (const [key, userID, name] of [
      ["taro", "pagetaro", "ページ 太郎"],
      ["hanako", "pagehanako", "ページ 花子"],
      ["jiro", "pagejiro", "ページ 次郎"],
    ] as const) {
      const created = await e2e.call<{ id: string }>(admin, "adminUsers.create", {
        userID,
        password: PASSWORD,
        name,
        email: `${userID}@example.jp`,
        gender: key === "hanako" ? "female" : "male",
      });
      ids[key] = created.id;
    }
    // One at a time, so the numbers follow the order they were written in.
    const received: string[] = [];
    for (let n = 1; n <= COUNT; n += 1) {
      const sent = await e2e.call<{ messageId: string }>(admin, "adminMessages.sendAsUser", {
        fromUserId: ids.hanako,
        toUserId: ids.taro,
        body: body(n, "太郎さん"),
      });
      received.push(sent.messageId);
      await e2e.call(admin, "adminMessages.sendAsUser", {
        fromUserId: ids.taro,
        toUserId: ids.hanako,
        body: body(n, "花子さん"),
      });
    }
    // Taro has read (not opened) every one of Hanako's.
    const taro = await e2e.token("pagetaro", PASSWORD);
    for (let i = 0; i < received.length; i += 10) {
      await Promise.all(received.slice(i, i + 10).map((id) => e2e.call(taro, "messages.markRead", { id })));
    }
    // Three newer ones from Jiro, unread.
    for (const n of [1, 2, 3]) {
      await e2e.call(admin, "adminMessages.sendAsUser", {
        fromUserId: ids.jiro,
        toUserId: ids.taro,
        body: `次郎から${n}通目です。はじめまして、よろしくお願いします。`,
      });
    }
  }, 300_000);

  it("at 1280 px: 受信 and 送信 page to the oldest; the name search starts again at page 1", async () => {
    const page = await memberPage("pagetaro", 1280);
    await expect.poll(() => headerCount(page)).toBe("未読 3件");
    await e2e.visit(page, "/user/received-emails", "受信メッセージ", "received (paged)");
    await expect.poll(() => count(page)).toBe("250件");
    await expect.poll(() => page.getByTestId("message-card").count()).toBe(20);
    // The newest first: No.250; Jiro's unread ones are not on 受信.
    expect(await page.getByTestId("message-card").first().textContent()).toContain("No.250");
    expect(await page.getByText("次郎から", { exact: false }).count()).toBe(0);
    await page.getByRole("button", { name: "次のページ" }).click();
    await expect.poll(() => page.getByTestId("message-card").first().textContent()).toContain("No.230");
    expect(await lastPage(page, "mail-paging-received-last")).toContain("No.001");

    // The name search: a new search from page 1; 次郎 has nothing read; clearing shows everyone.
    await page.getByLabel("差出人のニックネームで検索").fill("次郎");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await page.getByText("このニックネームの差出人からの受信メッセージはありません").waitFor();
    await expect.poll(() => count(page)).toBe("0件");
    await page.getByLabel("差出人のニックネームで検索").fill("花子");
    await page.getByLabel("差出人のニックネームで検索").press("Enter");
    await expect.poll(() => count(page)).toBe("250件");
    await expect
      .poll(() => page.getByRole("button", { name: "1ページ", exact: true }).getAttribute("aria-current"))
      .toBe("page");
    await settle(page);
    await e2e.screenshot(page, "mail-paging-received-search");

    // 未読: Jiro's three, searched by name.
    await e2e.visit(page, "/user/unread-emails", "未読メッセージ", "unread (paged)");
    await expect.poll(() => count(page)).toBe("3件");
    await page.getByLabel("差出人のニックネームで検索").fill("花子");
    await page.getByLabel("差出人のニックネームで検索").press("Enter");
    await page.getByText("このニックネームの差出人からの未読メッセージはありません").waitFor();

    await e2e.visit(page, "/user/sent-emails", "送信メッセージ", "sent (paged)");
    await expect.poll(() => count(page)).toBe("250件");
    expect(await page.getByTestId("message-card").first().textContent()).toContain("No.250");
    expect(await lastPage(page, "mail-paging-sent-last")).toContain("No.001 花子さんへ");
    await page.getByLabel("宛先のニックネームで検索").fill("ページ 花");
    await page.getByLabel("宛先のニックネームで検索").press("Enter");
    await expect.poll(() => count(page)).toBe("250件");
    await expect.poll(() => page.getByTestId("message-card").first().textContent()).toContain("No.250");
  });

  it("at 375 px: 受信 and 送信 page to the oldest, the page buttons within the screen", async () => {
    const page = await memberPage("pagetaro", 375);
    await e2e.visit(page, "/user/received-emails", "受信メッセージ", "received (paged)");
    await expect.poll(() => count(page)).toBe("250件");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await lastPage(page, "mail-paging-received-last")).toContain("No.001");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await pagerOnOneLine(page)).toBe(true);
    await page.getByRole("button", { name: "前のページ" }).click();
    await expect.poll(() => page.getByTestId("message-card").first().textContent()).toContain("No.030");

    await e2e.visit(page, "/user/sent-emails", "送信メッセージ", "sent (paged)");
    await expect.poll(() => count(page)).toBe("250件");
    expect(await lastPage(page, "mail-paging-sent-last")).toContain("No.001 花子さんへ");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await pagerOnOneLine(page)).toBe(true);
    // Down to 320 px.
    await page.setViewportSize({ width: 320, height: 900 });
    await page.getByRole("button", { name: "1ページ", exact: true }).click();
    for (const first of ["No.230", "No.210", "No.190"]) {
      await page.getByRole("button", { name: "次のページ" }).click();
      await expect.poll(() => page.getByTestId("message-card").first().textContent()).toContain(first);
    }
    await settle(page);
    await e2e.screenshot(page, "mail-paging-sent-page4");
    expect(await pagerOnOneLine(page)).toBe(true);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });

  it("opening an unread message drops the header's count and shows 既読 to the sender, without a reload", async () => {
    const taro = await memberPage("pagetaro", 1280);
    const jiro = await memberPage("pagejiro", 1280);
    await e2e.visit(jiro, "/user/sent-emails", "送信メッセージ", "sent (sender)");
    const sentCard = jiro.getByTestId("message-card").filter({ hasText: "次郎から3通目" });
    expect(await sentCard.getByTestId("read-marker").textContent()).toBe("未読");
    await e2e.visit(taro, "/user/unread-emails", "未読メッセージ", "unread (reader)");
    // Both live streams are open: a message from the operator shows in each header without a reload.
    await e2e.call(admin, "adminMessages.send", {
      recipientIds: [ids.taro, ids.jiro],
      body: "運営からのお知らせです。",
    });
    await expect.poll(() => headerCount(taro), { timeout: 10_000 }).toBe("未読 4件");
    await expect.poll(() => headerCount(jiro), { timeout: 10_000 }).toBe("未読 1件");

    const card = taro.getByTestId("message-card").filter({ hasText: "次郎から" }).first();
    await card.getByTestId("message-preview").click();
    const confirm = await e2e.dialog(taro, "ポイントの消費");
    await confirm.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(taro, "メッセージの詳細");
    await detail.getByText("次郎から3通目です。", { exact: false }).waitFor();
    await expect.poll(() => headerCount(taro), { timeout: 10_000 }).toBe("未読 3件");
    await taro.keyboard.press("Escape");
    await detail.waitFor({ state: "detached" });
    // Read: it left 未読 (the operator's stays there), and 受信 has it now.
    await expect.poll(() => taro.getByTestId("message-card").filter({ hasText: "次郎から3通目" }).count()).toBe(0);
    await expect.poll(() => count(taro)).toBe("3件");
    await settle(taro);
    await e2e.screenshot(taro, "mail-paging-unread-after-open");
    // The sender's 送信 says 既読, without a reload.
    await expect.poll(() => sentCard.getByTestId("read-marker").textContent(), { timeout: 10_000 }).toBe("既読");
    await settle(jiro);
    await e2e.screenshot(jiro, "mail-paging-sender-read");
    await e2e.visit(taro, "/user/received-emails", "受信メッセージ", "received (after open)");
    await expect.poll(() => count(taro)).toBe("251件");
    expect(await taro.getByTestId("message-card").first().textContent()).toContain("次郎から3通目");
  });

  it("a payment confirmed by an administrator raises the member's header balance, with a notice, without a reload", async () => {
    await e2e.call(admin, "adminPayments.updateSmartPit", {
      smartPitId: "SP-PAGING-1",
      apiKey: "e2e-paging-smartpit-key-0001",
      isActive: true,
    });
    const taroToken = await e2e.token("pagetaro", PASSWORD);
    const order = await e2e.call<{ transactionId: string; points: number }>(taroToken, "purchase.create", {
      amount: 1000,
      paymentMethod: "smart_pit",
    });
    const member = await memberPage("pagetaro", 375);
    const before = Number.parseInt(((await headerPoints(member)) ?? "").replace(/,/g, ""), 10);
    // The stream is open: an operator's message shows in the header without a reload.
    await e2e.call(admin, "adminMessages.send", { recipientIds: [ids.taro], body: "お支払いをお待ちしています。" });
    await expect.poll(() => headerCount(member), { timeout: 10_000 }).toBe("未読 4件");

    const adminPage = await e2e.page(1280);
    await loginThroughUi(adminPage, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await adminPage.getByRole("link", { name: "決済取引" }).click();
    const row = adminPage.getByTestId("transaction-row").filter({ hasText: order.transactionId });
    await row.getByRole("button", { name: `入金確認（取引 ${order.transactionId}）` }).click();
    const dialog = await e2e.dialog(adminPage, "入金の確認", "confirm payment");
    await dialog.getByRole("button", { name: "入金を確認する" }).click();
    await row.getByText("支払済").waitFor();

    const expected = `${(before + order.points).toLocaleString("ja-JP")}pt`;
    await expect.poll(() => headerPoints(member), { timeout: 10_000 }).toBe(expected);
    await member.getByText(`${order.points}ptが加算されました`).waitFor();
    // Also on the member card of the dashboard, still without a reload.
    expect(await member.getByTestId("dashboard-points").textContent()).toContain(
      (before + order.points).toLocaleString("ja-JP"),
    );
    await settle(member);
    await e2e.screenshot(member, "mail-paging-points-credited");
  });
});
