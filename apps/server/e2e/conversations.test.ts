import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

/**
 * Conversations (やりとり, decision 0030) in the browser: the list one line per partner,
 * a conversation paged back through 250 messages to the oldest, a sealed message opened (read,
 * the unread count drops), a draft that survives leaving the screen and is gone once sent, the
 * partner's view at 375 px with a scheduled reply (予約). Every screen and dialog is checked by axe.
 */
const e2e = useE2E();

const SEEDED = 250;
const FIRST_WORDS = "はじめまして、花子です。週末は映画を観に行くことが多いです。";
const numbered = (n: number) => `過去のメッセージ ${String(n).padStart(3, "0")}`;

const menuLink = (page: Page, name: RegExp) =>
  page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name });
const points = (page: Page) => page.getByLabel("所持ポイント").textContent();
const line = (page: Page, name: string) => page.getByTestId("conversation-line").filter({ hasText: name });

describe.skipIf(!hasChromium)("conversations in the browser", () => {
  let a = "";
  let b = "";
  let sendCost = 0;
  let openCost = 0;

  // Seeding, before the tests: two members who exchange, and a third with 250 messages from the first.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    a = await e2e.createMember(admin, "convtaro", "会話 太郎", "male");
    b = await e2e.createMember(admin, "convhanako", "会話 花子", "female");
    const c = await e2e.createMember(admin, "convjiro", "会話 次郎", "male");
    // Written as the member by an administrator (free): 250 from A to C, oldest first.
    for (let n = 1; n <= SEEDED; n += 1) {
      await e2e.call(admin, "adminMessages.sendAsUser", { fromUserId: a, toUserId: c, body: numbered(n) });
    }
    await e2e.call(admin, "adminMessages.sendAsUser", { fromUserId: b, toUserId: a, body: FIRST_WORDS });
    const costs = await e2e.call<{ actionName: string; pointCost: number }[]>(
      admin,
      "reference.pointCosts.list",
      undefined,
      "GET",
    );
    sendCost = costs.find((x) => x.actionName === "send_message")?.pointCost ?? 0;
    openCost = costs.find((x) => x.actionName === "unread_mail_view")?.pointCost ?? 0;
    expect(sendCost).toBeGreaterThan(0);
    expect(openCost).toBeGreaterThan(0);
  }, 120_000);

  it("at 1280 px: the list, and a conversation paged back through 250 messages to the oldest", async () => {
    const page = await e2e.memberPage("convtaro");
    // メッセージ comes first among the mail entries.
    const links = await page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link").allTextContents();
    const first = links.findIndex((t) => t.startsWith("メッセージ"));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(links[first + 1]).toMatch(/^未読/);
    await menuLink(page, /^メッセージ/).click();
    await page.getByRole("heading", { name: "メッセージ", exact: true }).waitFor();
    await line(page, "会話 花子").waitFor();
    expect(await line(page, "会話 花子").getByTestId("conversation-unread").textContent()).toBe("未読 1");
    expect(await line(page, "会話 次郎").getByTestId("conversation-preview").textContent()).toBe(
      `あなた: ${numbered(SEEDED)}`,
    );
    // Sealed: the list shows the preview line only.
    expect(await line(page, "会話 花子").getByTestId("conversation-preview").textContent()).not.toContain("映画");
    await settle(page);
    await e2e.screenshot(page, "conversation-list");

    await line(page, "会話 次郎").click();
    await page.getByRole("heading", { name: "会話 次郎さんとのメッセージ" }).waitFor();
    await page.getByText(numbered(SEEDED), { exact: true }).waitFor();
    expect(await page.getByText(numbered(1), { exact: true }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "conversation-newest");
    const older = page.getByRole("button", { name: "以前のメッセージを読み込む" });
    let loads = 0;
    while ((await older.count()) > 0) {
      const before = await page.getByTestId("bubble").count();
      await older.click();
      await expect.poll(() => page.getByTestId("bubble").count()).toBeGreaterThan(before);
      loads += 1;
      expect(loads).toBeLessThan(20);
    }
    expect(await page.getByTestId("bubble").count()).toBe(SEEDED);
    const texts = await page.getByTestId("bubble-body").allTextContents();
    expect(texts[0]).toBe(numbered(1));
    expect(texts.at(-1)).toBe(numbered(SEEDED));
    await settle(page);
    await e2e.screenshot(page, "conversation-oldest");
  }, 120_000);

  it("opening a sealed message reads it (charged once) and the unread count drops; a draft survives leaving and is gone once sent", async () => {
    const page = await e2e.memberPage("convtaro");
    const before = Number.parseInt((await points(page)) ?? "", 10);
    await expect
      .poll(() => page.getByTestId("header-unread-count").textContent(), { timeout: 10_000 })
      .toBe("未読 1件");
    await page.goto(`${e2e.baseUrl}/user/messages/${b}`);
    await page.getByRole("heading", { name: "会話 花子さんとのメッセージ" }).waitFor();
    const sealed = page.locator('[data-testid="bubble"][data-sealed="true"]');
    await sealed.waitFor();
    expect(await sealed.getByTestId("bubble-body").textContent()).not.toContain("映画");
    await e2e.screen(page, "conversation with a sealed message");
    await page.getByRole("button", { name: "会話 花子さんからの未読メッセージを開いて読む" }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "conversation open cost");
    await confirm.getByText(`未読メッセージの閲覧には${openCost}ptが必要です。続けますか？`).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    await page.getByText(FIRST_WORDS).waitFor();
    await expect.poll(() => page.getByTestId("header-unread-count").count()).toBe(0);
    await expect.poll(() => points(page)).toBe(`${before - openCost}pt`);

    // A draft: typed, the screen left (to 受信), and back through 「やりとりを見る」.
    const draft = "お返事が遅くなりました。今度の土曜日はいかがですか？";
    await page.getByLabel("メッセージ", { exact: true }).fill(draft);
    await menuLink(page, /^受信/).click();
    await page.getByRole("heading", { name: "受信メッセージ" }).waitFor();
    const card = page.getByTestId("message-card").filter({ hasText: "会話 花子" });
    await card.getByRole("link", { name: "会話 花子さんとのやりとりを見る" }).click();
    await page.getByRole("heading", { name: "会話 花子さんとのメッセージ" }).waitFor();
    await expect.poll(() => page.getByLabel("メッセージ", { exact: true }).inputValue()).toBe(draft);
    await settle(page);
    await e2e.screenshot(page, "conversation-draft");
    await page.getByTestId("reply-box").getByText(`送信には${sendCost}ptが必要です`).waitFor();
    await page.getByRole("button", { name: "送信", exact: true }).click();
    const confirmSend = await e2e.dialog(page, "ポイントの消費", "conversation send cost");
    await confirmSend.getByText(`メッセージの送信には${sendCost}ptが必要です。続けますか？`).waitFor();
    await confirmSend.getByRole("button", { name: "続ける" }).click();
    await page.getByText(MSG.messageSent).first().waitFor();
    const mine = page.locator('[data-testid="bubble"][data-mine="true"]').filter({ hasText: draft });
    await mine.waitFor();
    expect(await mine.getByTestId("read-marker").textContent()).toBe("未読");
    await expect.poll(() => page.getByLabel("メッセージ", { exact: true }).inputValue()).toBe("");
    await expect.poll(() => points(page)).toBe(`${before - openCost - sendCost}pt`);
    // Gone for good: not back after leaving and coming back either.
    await page.getByRole("link", { name: "← メッセージ一覧へ" }).click();
    await line(page, "会話 花子").waitFor();
    expect(await line(page, "会話 花子").getByTestId("conversation-unread").count()).toBe(0);
    expect(await line(page, "会話 花子").getByTestId("conversation-preview").textContent()).toBe(`あなた: ${draft}`);
    await line(page, "会話 花子").click();
    await page.getByRole("heading", { name: "会話 花子さんとのメッセージ" }).waitFor();
    await page.getByText(draft).waitFor();
    expect(await page.getByLabel("メッセージ", { exact: true }).inputValue()).toBe("");
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("enmusubi:draft")));
    expect(stored).toEqual([]);
  }, 120_000);

  it("at 375 px: the partner reads the conversation and schedules a reply (予約, at the bottom)", async () => {
    const page = await e2e.memberPage("convhanako", 375);
    await page.goto(`${e2e.baseUrl}/user/messages`);
    await line(page, "会話 太郎").waitFor();
    expect(await line(page, "会話 太郎").getByTestId("conversation-unread").textContent()).toBe("未読 1");
    await settle(page);
    await e2e.screenshot(page, "conversation-list");
    await line(page, "会話 太郎").click();
    await page.getByRole("heading", { name: "会話 太郎さんとのメッセージ" }).waitFor();
    await page.getByText(FIRST_WORDS).waitFor();
    // A's reply, not opened yet: its preview line and the button to open it.
    await page.getByRole("button", { name: "会話 太郎さんからの未読メッセージを開いて読む" }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "conversation-newest");

    await page.getByLabel("メッセージ", { exact: true }).fill("土曜日、大丈夫です！");
    await page.getByLabel("予約送信する").check();
    await page.getByRole("button", { name: "予約", exact: true }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "conversation schedule cost");
    await confirm.getByRole("button", { name: "続ける" }).click();
    await page.getByText(MSG.messageScheduled).first().waitFor();
    const scheduled = page.getByTestId("scheduled-bubble");
    await scheduled.getByText("土曜日、大丈夫です！").waitFor();
    expect(await scheduled.textContent()).toContain("予約");
    // After the last message.
    const order = await page.evaluate(() => {
      const bubbles = Array.from(document.querySelectorAll('[data-testid="bubble"], [data-testid="scheduled-bubble"]'));
      return bubbles.map((b) => b.getAttribute("data-testid"));
    });
    expect(order.at(-1)).toBe("scheduled-bubble");
    expect(await page.getByLabel("メッセージ", { exact: true }).inputValue()).toBe("");
    await settle(page);
    await e2e.screenshot(page, "conversation-scheduled");
  }, 120_000);
});
