import { MSG } from "@enmusubi/shared";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { ReceivedEmails } from "./ReceivedEmails";
import { UnreadEmails } from "./UnreadEmails";

type Message = RouterOutputs["messages"]["list"]["messages"][number];

const party = (id: string, name: string, role: "user" | "admin" = "user") => ({ id, name, photoLink: null, role });
const hanako = party("11111111-1111-4111-8111-111111111111", "花子");
const admin = party("22222222-2222-4222-8222-222222222222", "運営事務局", "admin");
const me = party("33333333-3333-4333-8333-333333333333", "太郎");

function message(
  id: string,
  from: typeof hanako,
  body: string,
  extra: { isRead?: boolean; hasReply?: boolean; sealed?: boolean } = {},
): Message {
  const sealed = extra.sealed ?? false;
  return {
    id,
    body: sealed ? "" : body,
    sealed,
    preview: sealed ? `${body.slice(0, 20)}…` : null,
    createdAt: new Date("2026-11-20T10:00:00Z"),
    isRead: extra.isRead ?? false,
    hasReply: extra.hasReply ?? false,
    replyToId: null,
    from,
    to: me,
    locked: false,
  };
}

const page = (messages: Message[]) => ({
  messages,
  total: messages.length,
  totalCapped: false,
  page: 1,
  limit: 100,
  totalPages: 1,
});

describe("UnreadEmails", () => {
  it("lists unread messages and administrators' read ones; replied ones have no reply button", async () => {
    const unread = [message("m1", hanako, "未読の本文", { hasReply: true })];
    const inbox = [
      ...unread,
      message("m2", admin, "運営からのお知らせ", { isRead: true }),
      message("m3", hanako, "既読", { isRead: true }),
    ];
    renderWithProviders(<UnreadEmails />, {
      "messages.list": (input) => page((input as { box: string }).box === "unread" ? unread : inbox),
      "scheduled.list": () => [],
      "reference.pointCosts.list": () => [],
    });
    await screen.findByText("未読の本文");
    expect(screen.getByText("運営からのお知らせ")).toBeInTheDocument();
    expect(screen.queryByText("既読")).not.toBeInTheDocument();
    expect(screen.getByTestId("mail-count")).toHaveTextContent("2件");
    // m1 is replied: only m2 (from an administrator, not replied) offers a reply; only m1 is unread.
    expect(screen.getAllByRole("button", { name: "返信" })).toHaveLength(1);
    expect(screen.getAllByRole("button", { name: "既読にする" })).toHaveLength(1);
  });

  it("shows the catalogue's error with a retry, and the empty state", async () => {
    let fail = true;
    renderWithProviders(<UnreadEmails />, {
      "messages.list": () => {
        if (fail) throw new Error("down");
        return page([]);
      },
      "scheduled.list": () => [],
    });
    expect(await screen.findByText(MSG.unreadFetchFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("未読メッセージはありません")).toBeInTheDocument();
  });
});

describe("a sealed message (未読メール閲覧, decision 0027)", () => {
  const FULL = "はじめまして。プロフィールを拝見してご連絡しました。週末はお時間ありますか?";
  const sealed = message("m9", hanako, FULL, { sealed: true });
  const opened = { ...sealed, body: FULL, sealed: false, preview: null, isRead: true, locked: false as const };
  const handlers = (openCost: number) => ({
    "messages.list": () => page([sealed]),
    "scheduled.list": () => [],
    "messages.get": () => ({ ...sealed, locked: false as const, openCost }),
    "messages.open": () => ({ message: opened, charged: openCost > 0, remainingPoints: 80 }),
  });

  it("is listed with its preview line and 「未読」, never its body", async () => {
    renderWithProviders(<UnreadEmails />, handlers(20));
    const card = await screen.findByRole("article", { name: /花子/ });
    expect(card).toHaveTextContent(`${FULL.slice(0, 20)}…`);
    expect(card).toHaveTextContent("未読");
    expect(card).not.toHaveTextContent(FULL.slice(20));
  });

  it("asks with the server's price, then opens it and shows the body", async () => {
    const { calls } = renderWithProviders(<UnreadEmails />, handlers(20));
    await userEvent.click(await screen.findByRole("button", { name: /花子さんからの未読メールを開く/ }));
    expect(await screen.findByText("未読メールの閲覧には20ptが必要です。続けますか？")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "messages.open")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    expect(await screen.findByTestId("message-detail-body")).toHaveTextContent(FULL);
    expect(calls.filter((c) => c.path === "messages.open").map((c) => c.input)).toEqual([{ id: "m9" }]);
  });

  it("declined: nothing is opened; free (0 pt): no confirmation", async () => {
    const declined = renderWithProviders(<UnreadEmails />, handlers(20));
    await userEvent.click(await screen.findByRole("button", { name: /花子さんからの未読メールを開く/ }));
    await userEvent.click(await screen.findByRole("button", { name: "キャンセル" }));
    expect(declined.calls.some((c) => c.path === "messages.open")).toBe(false);
    expect(screen.queryByTestId("message-detail-body")).not.toBeInTheDocument();
    declined.unmount();
    const free = renderWithProviders(<UnreadEmails />, handlers(0));
    await userEvent.click(await screen.findByRole("button", { name: /花子さんからの未読メールを開く/ }));
    expect(await screen.findByTestId("message-detail-body")).toHaveTextContent(FULL);
    expect(screen.queryByText(/ptが必要です。続けますか？/)).not.toBeInTheDocument();
    expect(free.calls.filter((c) => c.path === "messages.open")).toHaveLength(1);
  });
});

describe("ReceivedEmails", () => {
  it("shows read messages only", async () => {
    renderWithProviders(<ReceivedEmails />, {
      "messages.list": () => page([message("m1", hanako, "読んだ", { isRead: true }), message("m2", hanako, "まだ")]),
      "scheduled.list": () => [],
    });
    await screen.findByText("読んだ");
    expect(screen.queryByText("まだ")).not.toBeInTheDocument();
    expect(screen.getByTestId("mail-count")).toHaveTextContent("1件");
  });
});
