import { MSG } from "@enmusubi/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { ReceivedEmails } from "./ReceivedEmails";
import { SentEmails } from "./SentEmails";
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

const page = (messages: Message[], extra: { total?: number; page?: number; totalPages?: number } = {}) => ({
  messages,
  total: extra.total ?? messages.length,
  totalCapped: false,
  page: extra.page ?? 1,
  limit: 20,
  totalPages: extra.totalPages ?? 1,
});

type ListInput = { box: string; page?: number; partner?: string; withOperator?: boolean; limit?: number };
const listCalls = (calls: { path: string; input: unknown }[]) =>
  calls.filter((c) => c.path === "messages.list").map((c) => c.input as ListInput);

describe("UnreadEmails", () => {
  it("asks the server for the unread ones and the operator's, a page of 20; replied ones have no reply button", async () => {
    const listed = [
      message("m1", hanako, "未読の本文", { hasReply: true }),
      message("m2", admin, "運営からのお知らせ", { isRead: true }),
    ];
    const { calls } = renderWithProviders(<UnreadEmails />, {
      "messages.list": () => page(listed, { total: 2 }),
      "scheduled.list": () => [],
      "reference.pointCosts.list": () => [],
    });
    await screen.findByText("未読の本文");
    expect(screen.getByText("運営からのお知らせ")).toBeInTheDocument();
    expect(listCalls(calls)[0]).toEqual({ box: "unread", page: 1, limit: 20, withOperator: true });
    expect(screen.getByTestId("mail-count")).toHaveTextContent("2件");
    // m1 is replied: only m2 (from an administrator, not replied) offers a reply; only m1 is unread.
    expect(screen.getAllByRole("button", { name: "返信" })).toHaveLength(1);
    expect(screen.getAllByRole("button", { name: "既読にする" })).toHaveLength(1);
    // One page: no page buttons.
    expect(screen.queryByRole("button", { name: "次のページ" })).not.toBeInTheDocument();
  });

  it("pages on the server, and a name search starts again at page 1", async () => {
    const { calls } = renderWithProviders(<UnreadEmails />, {
      "messages.list": (input) =>
        page([message(`p${input.page}`, hanako, `${input.page ?? 1}ページ目の本文`)], {
          total: 45,
          page: input.page ?? 1,
          totalPages: 3,
        }),
      "scheduled.list": () => [],
    });
    await screen.findByText("1ページ目の本文");
    expect(screen.getByTestId("mail-count")).toHaveTextContent("45件");
    await userEvent.click(screen.getByRole("button", { name: "次のページ" }));
    await screen.findByText("2ページ目の本文");
    await userEvent.click(screen.getByRole("button", { name: "3ページ" }));
    await screen.findByText("3ページ目の本文");
    await userEvent.type(screen.getByLabelText("差出人のニックネームで検索"), " 花子 ");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 1, partner: "花子" }));
    await screen.findByText("1ページ目の本文");
    // Cleared: everyone again, from page 1.
    await userEvent.click(screen.getByRole("button", { name: "検索をクリア" }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)).toEqual({ box: "unread", page: 1, limit: 20, withOperator: true }),
    );
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

  it("lists every scheduled message of the member, whichever screen scheduled it", async () => {
    const { calls } = renderWithProviders(<UnreadEmails />, {
      "messages.list": () => page([]),
      "scheduled.list": () => [scheduled("s1", "user:favorite"), scheduled("s2", "user:received")],
    });
    expect(await screen.findAllByTestId("scheduled-entry")).toHaveLength(2);
    expect(calls.find((c) => c.path === "scheduled.list")?.input).toEqual({});
  });
});

function scheduled(id: string, source: "user:favorite" | "user:received") {
  return {
    id,
    type: "direct" as const,
    recipients: [{ id: hanako.id, name: hanako.name }],
    content: `予約 ${id}`,
    scheduledAt: new Date("2030-01-01T10:00:00Z"),
    createdAt: new Date("2026-11-20T10:00:00Z"),
    source,
    status: "pending" as const,
    lastError: null,
    senderUser: null,
  };
}

describe("a sealed message (未読メッセージ閲覧, decision 0027)", () => {
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
    await userEvent.click(await screen.findByRole("button", { name: /花子さんからの未読メッセージを開く/ }));
    expect(await screen.findByText("未読メッセージの閲覧には20ptが必要です。続けますか？")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "messages.open")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    expect(await screen.findByTestId("message-detail-body")).toHaveTextContent(FULL);
    expect(calls.filter((c) => c.path === "messages.open").map((c) => c.input)).toEqual([{ id: "m9" }]);
  });

  it("declined: nothing is opened; free (0pt): no confirmation", async () => {
    const declined = renderWithProviders(<UnreadEmails />, handlers(20));
    await userEvent.click(await screen.findByRole("button", { name: /花子さんからの未読メッセージを開く/ }));
    await userEvent.click(await screen.findByRole("button", { name: "キャンセル" }));
    expect(declined.calls.some((c) => c.path === "messages.open")).toBe(false);
    expect(screen.queryByTestId("message-detail-body")).not.toBeInTheDocument();
    declined.unmount();
    const free = renderWithProviders(<UnreadEmails />, handlers(0));
    await userEvent.click(await screen.findByRole("button", { name: /花子さんからの未読メッセージを開く/ }));
    expect(await screen.findByTestId("message-detail-body")).toHaveTextContent(FULL);
    expect(screen.queryByText(/ptが必要です。続けますか？/)).not.toBeInTheDocument();
    expect(free.calls.filter((c) => c.path === "messages.open")).toHaveLength(1);
  });
});

describe("ReceivedEmails", () => {
  it("asks the server for read messages only (never filters a page of unread ones away)", async () => {
    const { calls } = renderWithProviders(<ReceivedEmails />, {
      "messages.list": () => page([message("m1", hanako, "読んだ", { isRead: true })], { total: 30, totalPages: 2 }),
      "scheduled.list": () => [],
    });
    await screen.findByText("読んだ");
    expect(listCalls(calls)[0]).toEqual({ box: "read", page: 1, limit: 20 });
    expect(screen.getByTestId("mail-count")).toHaveTextContent("30件");
    expect(screen.getByRole("button", { name: "2ページ" })).toBeInTheDocument();
  });
});

describe("a search the server refuses", () => {
  it("shows the server's Japanese message (400), not the fetch failure", async () => {
    renderWithProviders(<ReceivedEmails />, {
      "messages.list": (input) => {
        if (!input.partner) return page([]);
        throw new TRPCClientError(MSG.partnerSearchTooLong, {
          result: { error: { code: -32600, message: MSG.partnerSearchTooLong, data: { httpStatus: 400 } } },
        } as never);
      },
      "scheduled.list": () => [],
    });
    await screen.findByText("受信済みのメッセージはありません");
    await userEvent.type(screen.getByLabelText("差出人のニックネームで検索"), "長い名前{Enter}");
    expect(await screen.findByText(MSG.partnerSearchTooLong)).toBeInTheDocument();
    expect(screen.queryByText(MSG.receivedFetchFailed)).not.toBeInTheDocument();
  });
});

describe("SentEmails", () => {
  it("shows each message's read state as the server has it, and searches recipients by name", async () => {
    const taro = party("44444444-4444-4444-8444-444444444444", "次郎");
    const sent = (id: string, body: string, isRead: boolean): Message => ({
      ...message(id, me, body, { isRead }),
      from: me,
      to: taro,
    });
    const { calls } = renderWithProviders(<SentEmails />, {
      "messages.list": () => page([sent("s1", "読まれた", true), sent("s2", "まだ読まれていない", false)]),
      "scheduled.list": () => [scheduled("s9", "user:favorite")],
      "messages.contacts": () => [],
      "reference.pointCosts.list": () => [],
    });
    expect(await screen.findAllByRole("article", { name: /宛先 次郎/ })).toHaveLength(2);
    const markers = screen.getAllByTestId("read-marker").map((m) => m.textContent);
    expect(markers).toEqual(["既読", "未読"]);
    expect(await screen.findByTestId("scheduled-entry")).toHaveTextContent("予約 s9");
    await userEvent.type(screen.getByLabelText("宛先のニックネームで検索"), "次郎{Enter}");
    await waitFor(() => expect(listCalls(calls).at(-1)).toEqual({ box: "sent", page: 1, limit: 20, partner: "次郎" }));
  });
});
