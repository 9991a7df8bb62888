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
  extra: { isRead?: boolean; hasReply?: boolean } = {},
): Message {
  return {
    id,
    body,
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
