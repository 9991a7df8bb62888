import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

/**
 * A scheduled message is sent by the server (docs/decisions/0004): a member schedules a reply a
 * few seconds ahead in the browser, closes it, and the server's 5 s job loop sends it once; the
 * recipient's open unread screen shows it (live, over SSE) exactly once.
 */
const e2e = useE2E();

/** Test data goes through the API (the screens are driven in the browser). */

const BODY = "予約した返信です。5秒後に届きます。";

const menuLink = (page: Page, name: RegExp) =>
  page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name });

describe.skipIf(!hasChromium)("scheduled messages in the browser", () => {
  it("a reply scheduled ~5 s ahead is sent by the server once, with no browser open for the sender", async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    const a = await e2e.createMember(admin, "yoyakutaro", "予約 太郎", "male");
    const b = await e2e.createMember(admin, "yoyakuhanako", "予約 花子", "female");
    // B wrote to A (sent as B by an administrator, free), so A can answer it.
    await e2e.call(admin, "adminMessages.sendAsUser", { fromUserId: b, toUserId: a, body: "はじめまして。花子です。" });
    const costs = await e2e.call<{ actionName: string; pointCost: number }[]>(
      admin,
      "reference.pointCosts.list",
      undefined,
      "GET",
    );
    const cost = costs.find((c) => c.actionName === "send_message")?.pointCost ?? 0;
    expect(cost).toBeGreaterThan(0);

    // B waits on the unread screen: nothing unread yet.
    const pageB = await e2e.memberPage("yoyakuhanako");
    await menuLink(pageB, /^未読/).click();
    await pageB.getByRole("heading", { name: "未読メッセージ" }).waitFor();
    expect(await pageB.getByTestId("header-unread-count").count()).toBe(0);

    // A answers from the unread screen, scheduled.
    const pageA = await e2e.memberPage("yoyakutaro");
    await menuLink(pageA, /^未読/).click();
    await pageA.getByRole("heading", { name: "未読メッセージ" }).waitFor();
    // Sealed until opened (decision 0027): the card shows the preview line, and can be answered unopened.
    const card = pageA.getByTestId("message-card").filter({ hasText: "はじめまして…" });
    await card.getByRole("button", { name: "返信" }).click();
    const reply = await e2e.dialog(pageA, "予約 花子さんへ返信", "member reply");
    await reply.getByLabel("メッセージ").fill(BODY);
    await reply.getByLabel("予約送信する").check();
    // The field takes minutes (datetime-local, step 60 s): wait until the next minute is 5–7 s
    // away on the browser's clock, then schedule for it.
    const at = await pageA.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const pad = (n: number) => String(n).padStart(2, "0");
          const poll = () => {
            const now = new Date();
            if (now.getSeconds() >= 53 && now.getSeconds() < 55) {
              const next = new Date(now.getTime() + 60_000);
              resolve(
                `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}T${pad(next.getHours())}:${pad(next.getMinutes())}`,
              );
            } else setTimeout(poll, 100);
          };
          poll();
        }),
    );
    await reply.getByLabel("送信日時").fill(at);
    await reply.getByRole("button", { name: "予約", exact: true }).click();
    const confirm = await e2e.dialog(pageA, "ポイントの消費");
    await confirm.getByRole("button", { name: "続ける" }).click();
    await pageA.getByText(MSG.replyScheduled).waitFor();
    await pageA.getByTestId("scheduled-entry").filter({ hasText: BODY }).waitFor();
    // Scheduled, not sent now: nothing charged yet.
    await expect.poll(() => pageA.getByLabel("所持ポイント").textContent()).toBe("100pt");
    // A leaves: the browser has nothing more to do with it.
    await pageA.context().close();

    // B's open screen shows it arrive (live count and list), exactly once.
    await expect
      .poll(
        () =>
          pageB
            .getByTestId("header-unread-count")
            .textContent()
            .catch(() => null),
        { timeout: 20_000 },
      )
      .toBe("未読 1件");
    // Sealed for B until opened (decision 0027): listed by its preview line.
    const arrived = pageB.getByTestId("message-card").filter({ hasText: "予約した返信です。…" });
    await arrived.first().waitFor();
    expect(await arrived.count()).toBe(1);
    // The dispatcher runs again: an entry the administrator schedules now, 3 s ahead, is sent by a
    // later run (the administrator's list is empty once it is); A's reply is still there once.
    await e2e.call(admin, "scheduled.create", {
      type: "direct",
      recipientIds: [a],
      content: "次の予約",
      scheduledAt: new Date(Date.now() + 3000).toISOString(),
      source: "admin:sent",
    });
    expect(await e2e.call<unknown[]>(admin, "scheduled.list", undefined, "GET")).toHaveLength(1);
    await expect
      .poll(() => e2e.call<unknown[]>(admin, "scheduled.list", undefined, "GET"), { timeout: 20_000 })
      .toEqual([]);
    expect(await pageB.getByTestId("header-unread-count").textContent()).toBe("未読 1件");
    expect(await arrived.count()).toBe(1);
    await settle(pageB);
    await e2e.screenshot(pageB, "member-unread-scheduled-arrived");

    // The database holds exactly one such message (the administrators' list of every message),
    // the entry is no longer pending, and A was charged once, at send time.
    const list = await fetch(`${e2e.baseUrl}/api/admin/messages?search=${encodeURIComponent(BODY)}&limit=50`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const { messages, pagination } = (await list.json()) as {
      messages: Array<Record<string, unknown>>;
      pagination: { total: number };
    };
    expect(pagination.total).toBe(1);
    expect(messages).toHaveLength(1);
    const tokenA = await e2e.token("yoyakutaro");
    expect(await e2e.call<unknown[]>(tokenA, "scheduled.list", undefined, "GET")).toEqual([]);
    expect((await e2e.call<{ points: number }>(tokenA, "profile.me", undefined, "GET")).points).toBe(100 - cost);
  }, 120_000);
});
