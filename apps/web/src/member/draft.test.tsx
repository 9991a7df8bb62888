import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../lib/api-types";
import { me, pointCost, publicProfile, verificationStatus } from "../test/fixtures";
import { type Handlers, renderWithProviders } from "../test/render";
import { ConversationView } from "./conversations/ConversationView";
import { SendToMemberDialog } from "./discovery/SendToMemberDialog";
import { ReceivedEmails } from "./mail/ReceivedEmails";
import { UnreadEmails } from "./mail/UnreadEmails";
import { draftKey } from "./useDraft";

/**
 * One draft per partner wherever the member writes to them: the reply dialog of 未読 / 受信, the
 * message dialog of search, and the conversation's reply box read and write the same one; leaving a
 * dialog (Escape, キャンセル) keeps it, a send clears it; another member never sees it.
 */
type Message = RouterOutputs["messages"]["list"]["messages"][number];
type Thread = RouterOutputs["messages"]["thread"];

const ME = "33333333-3333-4333-8333-333333333333";
const OTHER_MEMBER = "44444444-4444-4444-8444-444444444444";
const HANAKO = "11111111-1111-4111-8111-111111111111";
const JIRO = "55555555-5555-4555-8555-555555555555";
const party = (id: string, name: string) => ({ id, name, photoLink: null, role: "user" as const });
const hanako = party(HANAKO, "花子");
const jiro = party(JIRO, "次郎");
const taro = party(ME, "太郎");

const message = (id: string, from: typeof hanako, body: string): Message => ({
  id,
  body,
  sealed: false,
  preview: null,
  createdAt: new Date("2026-11-20T10:00:00Z"),
  isRead: true,
  hasReply: false,
  replyToId: null,
  from,
  to: taro,
  locked: false,
});

const inbox = [message("m1", hanako, "花子からのメッセージ"), message("m2", jiro, "次郎からのメッセージ")];
const page = (messages: Message[]) => ({
  messages,
  total: messages.length,
  totalCapped: false,
  page: 1,
  limit: 20,
  totalPages: 1,
});
const thread: Thread = {
  partner: { ...hanako, verified: true, reachable: true },
  messages: [],
  hasOlder: false,
  nextCursor: null,
  scheduled: [],
  held: [],
};

const handlers = (memberId = ME): Handlers => ({
  "profile.me": () => me({ id: memberId, name: "太郎" }),
  "verification.status": () => verificationStatus("verified"),
  "reference.pointCosts.list": () => [pointCost("send_message", 48)],
  "messages.list": () => page(inbox),
  "scheduled.list": () => [],
  "messages.thread": () => thread,
  "messages.send": () => ({ status: "sent", messageIds: ["new"], sent: 1, cost: 48, remainingPoints: 52 }),
});

async function openReply(sender: string) {
  const card = await screen.findByRole("article", { name: new RegExp(sender) });
  await userEvent.click(within(card).getByRole("button", { name: "返信" }));
  const dialog = await screen.findByRole("dialog", { name: `${sender}さんへ返信` });
  const box = within(dialog).getByLabelText("メッセージ");
  // The member's id arrives with profile.me: the draft is read once it is known.
  await waitFor(() => expect(within(dialog).getByText(/下書きは自動で保存されます/)).toBeInTheDocument());
  return { dialog, box };
}

describe("one draft per partner", { timeout: 20_000 }, () => {
  it("the reply dialog keeps its text through Escape, per partner, and the conversation shows it", async () => {
    const mail = renderWithProviders(<UnreadEmails />, handlers());
    const first = await openReply("花子");
    await userEvent.type(first.box, "お返事の途中です");
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "花子さんへ返信" })).not.toBeInTheDocument());
    expect(localStorage.getItem(draftKey(ME, HANAKO))).toBe("お返事の途中です");

    // Another partner: their own (empty) draft; then Hanako's again.
    const other = await openReply("次郎");
    expect(other.box).toHaveValue("");
    await userEvent.click(within(other.dialog).getByRole("button", { name: "キャンセル" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "次郎さんへ返信" })).not.toBeInTheDocument());
    const again = await openReply("花子");
    expect(again.box).toHaveValue("お返事の途中です");
    mail.unmount();

    // The conversation with Hanako shows the same draft.
    renderWithProviders(<ConversationView partnerId={HANAKO} />, handlers());
    expect(await screen.findByLabelText("メッセージ")).toHaveValue("お返事の途中です");
  });

  it("a draft written in the conversation is there in the reply dialog of 受信; replying clears it", async () => {
    const view = renderWithProviders(<ConversationView partnerId={HANAKO} />, handlers());
    await userEvent.type(await screen.findByLabelText("メッセージ"), "会話で書いた下書き");
    view.unmount();

    const mail = renderWithProviders(<ReceivedEmails />, handlers());
    const { dialog, box } = await openReply("花子");
    await waitFor(() => expect(box).toHaveValue("会話で書いた下書き"));
    await userEvent.click(within(dialog).getByRole("button", { name: "返信" }));
    await userEvent.click(await screen.findByRole("button", { name: "続ける" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "花子さんへ返信" })).not.toBeInTheDocument());
    expect(mail.calls.filter((c) => c.path === "messages.send").map((c) => c.input)).toEqual([
      { recipientIds: [HANAKO], body: "会話で書いた下書き", replyToId: "m1", markRead: false },
    ]);
    expect(localStorage.getItem(draftKey(ME, HANAKO))).toBeNull();
    const reopened = await openReply("花子");
    expect(reopened.box).toHaveValue("");
  });

  it("the message dialog of search shares the draft; another member on the same browser does not see it", async () => {
    localStorage.setItem(draftKey(ME, HANAKO), "検索から書いた下書き");
    const profile = publicProfile({ id: HANAKO, name: "花子" });
    const mine = renderWithProviders(
      <SendToMemberDialog recipient={profile} onClose={() => {}} source="user:search" emojiSize="large" />,
      handlers(),
    );
    const dialog = await screen.findByRole("dialog", { name: "花子さんへメッセージ" });
    await waitFor(() => expect(within(dialog).getByLabelText("メッセージ")).toHaveValue("検索から書いた下書き"));
    mine.unmount();

    renderWithProviders(
      <SendToMemberDialog recipient={profile} onClose={() => {}} source="user:search" emojiSize="large" />,
      handlers(OTHER_MEMBER),
    );
    const theirs = await screen.findByRole("dialog", { name: "花子さんへメッセージ" });
    await waitFor(() => expect(within(theirs).getByText(/下書きは自動で保存されます/)).toBeInTheDocument());
    expect(within(theirs).getByLabelText("メッセージ")).toHaveValue("");
  });
});
