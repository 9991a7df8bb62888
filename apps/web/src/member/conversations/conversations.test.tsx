import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { me, pointCost, verificationStatus } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { draftKey } from "../useDraft";
import { ConversationList } from "./ConversationList";
import { ConversationView } from "./ConversationView";
import { partnerIdOf } from "./Messages";

type Thread = RouterOutputs["messages"]["thread"];
type Message = Thread["messages"][number];
type Line = RouterOutputs["messages"]["conversations"]["conversations"][number];

const ME = "33333333-3333-4333-8333-333333333333";
const HANAKO = "11111111-1111-4111-8111-111111111111";
const party = (id: string, name: string, role: "user" | "admin" = "user") => ({ id, name, photoLink: null, role });
const hanako = party(HANAKO, "花子");
const taro = party(ME, "太郎");

let clock = Date.parse("2026-11-20T10:00:00Z");
function message(id: string, fromMe: boolean, body: string, extra: Partial<Message> = {}): Message {
  clock += 60_000;
  const sealed = extra.sealed ?? false;
  return {
    id,
    body: sealed ? "" : body,
    sealed,
    preview: sealed ? `${body.slice(0, 5)}…` : null,
    createdAt: new Date(clock),
    isRead: false,
    hasReply: false,
    replyToId: null,
    from: fromMe ? taro : hanako,
    to: fromMe ? hanako : taro,
    locked: false,
    ...extra,
  };
}

const partner = { ...hanako, verified: true, reachable: true };
const threadPage = (messages: Message[], extra: Partial<Thread> = {}): Thread => ({
  partner,
  messages,
  hasOlder: false,
  nextCursor: null,
  scheduled: [],
  held: [],
  ...extra,
});

const base = {
  "profile.me": () => me({ id: ME, name: "太郎" }),
  "verification.status": () => verificationStatus("verified"),
  "reference.pointCosts.list": () => [pointCost("send_message", 48)],
};

describe("ConversationList", () => {
  const line = (extra: Partial<Line> = {}): Line => ({
    partner: { ...hanako, verified: true },
    lastMessage: message("m1", false, "はじめまして、よろしくお願いします", { sealed: true }),
    unreadCount: 2,
    ...extra,
  });

  it("one line per partner: the newest message's line, the unread count, a link to the conversation", async () => {
    const lines = [
      line(),
      line({
        partner: { ...party("22222222-2222-4222-8222-222222222222", "運営", "admin"), verified: true },
        lastMessage: message("m2", true, "問い合わせの件です"),
        unreadCount: 0,
      }),
    ];
    const { calls } = renderWithProviders(<ConversationList />, {
      "messages.conversations": () => ({
        conversations: lines,
        total: 41,
        totalCapped: false,
        page: 1,
        limit: 20,
        totalPages: 3,
      }),
    });
    const items = await screen.findAllByTestId("conversation-line");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveAttribute("href", `/user/messages/${HANAKO}`);
    expect(within(items[0] as HTMLElement).getByTestId("conversation-preview")).toHaveTextContent("はじめまし…");
    expect(within(items[0] as HTMLElement).getByTestId("conversation-unread")).toHaveTextContent("未読 2");
    expect(within(items[1] as HTMLElement).getByTestId("conversation-preview")).toHaveTextContent(
      "あなた: 問い合わせの件です",
    );
    expect(within(items[1] as HTMLElement).queryByTestId("conversation-unread")).toBeNull();
    expect(screen.getByTestId("conversation-count")).toHaveTextContent("41件");
    // Paged and searched on the server.
    await userEvent.click(screen.getByRole("button", { name: "2ページ" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "messages.conversations").at(-1)?.input).toEqual({ page: 2, limit: 20 }),
    );
    await userEvent.type(screen.getByLabelText("ニックネームで探す"), "花子");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "messages.conversations").at(-1)?.input).toEqual({
        page: 1,
        limit: 20,
        q: "花子",
      }),
    );
  });

  it("says so when there is none", async () => {
    renderWithProviders(<ConversationList />, {
      "messages.conversations": () => ({
        conversations: [],
        total: 0,
        totalCapped: false,
        page: 1,
        limit: 20,
        totalPages: 1,
      }),
    });
    expect(await screen.findByText("まだメッセージはありません")).toBeInTheDocument();
  });
});

describe("ConversationView", () => {
  const newest = [message("n1", false, "こんにちは"), message("n2", true, "お元気ですか", { isRead: true })];
  const older = [message("o1", true, "いちばん古いメッセージ")];

  it("oldest at the top, the member's on the right; older ones on demand; scheduled ones last with 予約", async () => {
    const at = new Date("2026-12-01T12:00:00Z");
    const { calls } = renderWithProviders(<ConversationView partnerId={HANAKO} />, {
      ...base,
      "messages.thread": (input) =>
        input.cursor
          ? threadPage(older)
          : threadPage(newest, {
              hasOlder: true,
              nextCursor: "n1",
              scheduled: [
                {
                  id: "s1",
                  type: "direct",
                  recipients: [{ id: HANAKO, name: "花子" }],
                  content: "あとで送るメッセージ",
                  scheduledAt: at,
                  createdAt: at,
                  source: "user:sent",
                  status: "pending",
                  lastError: null,
                  senderUser: null,
                },
              ],
            }),
    });
    await screen.findByText("こんにちは");
    expect(screen.getByRole("heading", { name: "花子さんとのメッセージ" })).toBeInTheDocument();
    const texts = () => screen.getAllByTestId("bubble-body").map((b) => b.textContent);
    expect(texts()).toEqual(["こんにちは", "お元気ですか"]);
    const [theirs, mine] = screen.getAllByTestId("bubble");
    expect(theirs).not.toHaveAttribute("data-mine");
    expect(mine).toHaveAttribute("data-mine", "true");
    expect(within(mine as HTMLElement).getByTestId("read-marker")).toHaveTextContent("既読");
    const scheduled = screen.getByTestId("scheduled-bubble");
    expect(scheduled).toHaveTextContent("あとで送るメッセージ");
    expect(scheduled).toHaveTextContent("予約");
    await userEvent.click(screen.getByRole("button", { name: "以前のメッセージを読み込む" }));
    await waitFor(() => expect(texts()).toEqual(["いちばん古いメッセージ", "こんにちは", "お元気ですか"]));
    expect(
      calls.filter((c) => c.path === "messages.thread").map((c) => (c.input as { cursor?: unknown }).cursor ?? null),
    ).toEqual([null, "n1"]);
    expect(screen.queryByRole("button", { name: "以前のメッセージを読み込む" })).toBeNull();
  });

  it("opens a sealed message after confirming the server's price", async () => {
    const sealed = message("x1", false, "週末に映画はいかがですか", { sealed: true });
    let opened = false;
    const { calls } = renderWithProviders(<ConversationView partnerId={HANAKO} />, {
      ...base,
      "messages.thread": () =>
        threadPage([
          opened ? { ...sealed, sealed: false, preview: null, body: "週末に映画はいかがですか", isRead: true } : sealed,
        ]),
      "messages.get": () => ({ ...sealed, locked: false as const, openCost: 20 }),
      "messages.open": () => {
        opened = true;
        return { message: { ...sealed, sealed: false, locked: false as const }, charged: true, remainingPoints: 80 };
      },
    });
    expect(await screen.findByTestId("bubble-body")).toHaveTextContent("週末に映画…");
    await userEvent.click(screen.getByRole("button", { name: "花子さんからの未読メッセージを開いて読む" }));
    expect(await screen.findByText("未読メッセージの閲覧には20ptが必要です。続けますか？")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    await waitFor(() => expect(screen.getByTestId("bubble-body")).toHaveTextContent("週末に映画はいかがですか"));
    expect(calls.filter((c) => c.path === "messages.open").map((c) => c.input)).toEqual([{ id: "x1" }]);
  });

  it("keeps a draft per partner until it is sent; the price is confirmed and the newest message answered", async () => {
    const handlers = {
      ...base,
      "messages.thread": () => threadPage(newest),
      "messages.send": () => ({ status: "sent" as const, messageIds: ["new"], sent: 1, cost: 48, remainingPoints: 52 }),
    };
    const first = renderWithProviders(<ConversationView partnerId={HANAKO} />, handlers);
    const box = await screen.findByLabelText("メッセージ");
    await userEvent.type(box, "書きかけです");
    expect(localStorage.getItem(draftKey(ME, HANAKO))).toBe("書きかけです");
    first.unmount();

    const second = renderWithProviders(<ConversationView partnerId={HANAKO} />, handlers);
    expect(await screen.findByLabelText("メッセージ")).toHaveValue("書きかけです");
    expect(await screen.findByText("送信には48ptが必要です")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "送信" }));
    expect(await screen.findByText("メッセージの送信には48ptが必要です。続けますか？")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    await waitFor(() => expect(screen.getByLabelText("メッセージ")).toHaveValue(""));
    expect(localStorage.getItem(draftKey(ME, HANAKO))).toBeNull();
    expect(second.calls.filter((c) => c.path === "messages.send").map((c) => c.input)).toEqual([
      { recipientIds: [HANAKO], body: "書きかけです", replyToId: "n1", markRead: false },
    ]);
  });

  it("the member's held messages follow the last one, 確認中 or お届けできませんでした, never why", async () => {
    renderWithProviders(<ConversationView partnerId={HANAKO} />, {
      ...base,
      "messages.thread": () =>
        threadPage([message("h0", false, "こんにちは")], {
          held: [
            {
              id: "held1",
              status: "rejected",
              title: null,
              body: "断られたメッセージ",
              createdAt: new Date("2026-11-20T11:00:00Z"),
            },
            {
              id: "held2",
              status: "held",
              title: null,
              body: "ホ別2で会えませんか",
              createdAt: new Date("2026-11-20T12:00:00Z"),
            },
          ],
        }),
    });
    const held = await screen.findAllByTestId("held-bubble");
    expect(held.map((h) => h.getAttribute("data-status"))).toEqual(["rejected", "held"]);
    const [rejected, waiting] = held as [HTMLElement, HTMLElement];
    expect(within(waiting).getByTestId("held-badge")).toHaveTextContent("確認中");
    expect(waiting).toHaveTextContent("ホ別2で会えませんか");
    expect(waiting).toHaveTextContent("確認が終わりしだいお届けします。");
    expect(within(rejected).getByTestId("held-badge")).toHaveTextContent("お届けできませんでした");
    expect(rejected).toHaveTextContent("ポイントは返還済みです");
    // After the messages, in the thread, on the member's side.
    const thread = screen.getByTestId("thread");
    expect(thread.lastElementChild).toBe(waiting);
    expect(screen.queryByTestId("thread-empty")).toBeNull();
  });

  it("a send held for review says 確認中 instead of sent; a refusal shows the server's message and keeps the text", async () => {
    let refuse = false;
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <ConversationView partnerId={HANAKO} />
      </>,
      {
        ...base,
        "messages.thread": () => threadPage([]),
        "messages.send": () => {
          if (refuse)
            throw new TRPCClientError(MSG.screeningRefusedMinors, {
              result: { error: { code: -32600, message: MSG.screeningRefusedMinors, data: { httpStatus: 400 } } },
            } as never);
          return { status: "held" as const, messageIds: [], sent: 1, cost: 48, remainingPoints: 52 };
        },
      },
    );
    const box = await screen.findByLabelText("メッセージ");
    await userEvent.click(box);
    await userEvent.paste("ホ別2で会えませんか");
    await userEvent.click(screen.getByRole("button", { name: "送信" }));
    await userEvent.click(await screen.findByRole("button", { name: "続ける" }));
    expect(await screen.findByText(MSG.messageHeldForReview)).toBeInTheDocument();
    expect(screen.queryByText(MSG.messageSent)).toBeNull();
    await waitFor(() => expect(box).toHaveValue(""));

    refuse = true;
    await userEvent.click(box);
    await userEvent.paste("中学生です");
    await userEvent.click(screen.getByRole("button", { name: "送信" }));
    await userEvent.click(await screen.findByRole("button", { name: "続ける" }));
    expect(await screen.findByText(MSG.screeningRefusedMinors)).toBeInTheDocument();
    expect(box).toHaveValue("中学生です");
    expect(calls.filter((c) => c.path === "messages.send")).toHaveLength(2);
  });

  it("discarding a draft asks first", async () => {
    localStorage.setItem(draftKey(ME, HANAKO), "消すかもしれない下書き");
    renderWithProviders(<ConversationView partnerId={HANAKO} />, { ...base, "messages.thread": () => threadPage([]) });
    expect(await screen.findByLabelText("メッセージ")).toHaveValue("消すかもしれない下書き");
    expect(screen.getByTestId("thread-empty")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "下書きを破棄" }));
    await userEvent.click(await screen.findByRole("button", { name: "キャンセル" }));
    expect(screen.getByLabelText("メッセージ")).toHaveValue("消すかもしれない下書き");
    await userEvent.click(screen.getByRole("button", { name: "下書きを破棄" }));
    await userEvent.click(await screen.findByRole("button", { name: "破棄する" }));
    await waitFor(() => expect(screen.getByLabelText("メッセージ")).toHaveValue(""));
    expect(localStorage.getItem(draftKey(ME, HANAKO))).toBeNull();
  });

  it("someone who can no longer be written to: the history, and no sending", async () => {
    renderWithProviders(<ConversationView partnerId={HANAKO} />, {
      ...base,
      "messages.thread": () => ({ ...threadPage(newest), partner: { ...partner, reachable: false } }),
    });
    expect(await screen.findByTestId("reply-closed")).toHaveTextContent("このお相手にはメッセージを送信できません。");
    expect(screen.getByRole("button", { name: "送信" })).toBeDisabled();
  });
});

describe("the conversation's path", () => {
  it("/user/messages/:partnerId names the partner; the list has none", () => {
    expect(partnerIdOf(`/user/messages/${HANAKO}`)).toBe(HANAKO);
    expect(partnerIdOf("/user/messages")).toBeNull();
    expect(partnerIdOf("/user/messages/")).toBeNull();
  });
});
