import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { type Handlers, renderWithProviders } from "../../test/render";
import { ScreeningQueue } from "./ScreeningQueue";
import type { HeldItem } from "./types";

const MESSAGE_ID = "11111111-1111-4111-8111-111111111111";
const POST_ID = "22222222-2222-4222-8222-222222222222";

const person = (userID: string, name: string | null) => ({ id: `${userID}-id`, userID, name });

const held = (extra: Partial<HeldItem> & Pick<HeldItem, "id" | "kind">): HeldItem => ({
  status: "held",
  author: person("taro0001", "太郎"),
  recipient: extra.kind === "message" ? person("hanako77", "花子") : null,
  title: null,
  body: "ホ別2で会えませんか",
  matches: [{ ruleId: "r1", category: "solicitation", action: "hold", excerpt: "ホ別" }],
  chargedPoints: 48,
  createdAt: new Date("2026-11-20T10:00:00Z"),
  decidedAt: null,
  reason: null,
  recentScreenings: 1,
  flagged: false,
  ...extra,
});

const page = (items: HeldItem[]) => ({
  items,
  pagination: { total: items.length, totalCapped: false, totalPages: 1, currentPage: 1, limit: 20 },
});

const rejected = (message: string) =>
  new TRPCClientError(message, { result: { error: { code: -32000, message, data: { httpStatus: 409 } } } } as never);

function renderQueue(handlers: Handlers) {
  return renderWithProviders(
    <>
      <Notifications />
      <ScreeningQueue />
    </>,
    handlers,
  );
}

describe("ScreeningQueue", { timeout: 15_000 }, () => {
  it("shows each held item: kind, author and recipient, the text, the matched rules, points and the 要注意 flag", async () => {
    renderQueue({
      "adminScreening.queue": () =>
        page([
          held({ id: MESSAGE_ID, kind: "message", recentScreenings: 6, flagged: true }),
          held({ id: POST_ID, kind: "board_post", title: "JKです", body: "会える人", chargedPoints: 0 }),
        ]),
    });
    const [message, post] = await screen.findAllByTestId("held-card");
    if (!message || !post) throw new Error("two cards expected");
    const m = within(message);
    expect(m.getByText("メッセージ")).toBeInTheDocument();
    expect(m.getByText("太郎（taro0001）")).toBeInTheDocument();
    expect(m.getByText("花子（hanako77）")).toBeInTheDocument();
    expect(m.getByTestId("held-body")).toHaveTextContent("ホ別2で会えませんか");
    expect(m.getByTestId("held-match")).toHaveTextContent("勧誘・援助：ホ別");
    expect(m.getByText("消費ポイント 48pt")).toBeInTheDocument();
    expect(m.getByTestId("held-flag")).toHaveTextContent("要注意");
    expect(m.getByTestId("held-recent")).toHaveTextContent("直近24時間の保留・拒否 6件");
    const p = within(post);
    expect(p.getByText("掲示板の投稿")).toBeInTheDocument();
    expect(p.getByTestId("held-title")).toHaveTextContent("JKです");
    expect(p.queryByText("宛先")).toBeNull();
    expect(p.queryByTestId("held-flag")).toBeNull();
    expect(screen.getByTestId("held-total")).toHaveTextContent("2件");
  });

  it("releases after a confirmation; declining sends nothing", async () => {
    const { calls } = renderQueue({
      "adminScreening.queue": () => page([held({ id: MESSAGE_ID, kind: "message" })]),
      "adminScreening.release": () => ({ success: true }),
      "adminDashboard.waiting": () => {
        throw new Error("not mounted here");
      },
    });
    const card = await screen.findByTestId("held-card");
    await userEvent.click(within(card).getByRole("button", { name: /を公開する$/ }));
    const confirm = await screen.findByRole("dialog", { name: "公開の確認" });
    expect(confirm).toHaveTextContent("太郎（taro0001）から花子（hanako77）へのメッセージを届けますか？");
    await userEvent.click(within(confirm).getByRole("button", { name: "キャンセル" }));
    expect(calls.some((c) => c.path === "adminScreening.release")).toBe(false);

    await userEvent.click(within(card).getByRole("button", { name: /を公開する$/ }));
    await userEvent.click(
      within(await screen.findByRole("dialog", { name: "公開の確認" })).getByRole("button", { name: "公開する" }),
    );
    expect(await screen.findByText(MSG.screeningReleased)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminScreening.release").map((c) => c.input)).toEqual([{ id: MESSAGE_ID }]);
    // The list is read again.
    await waitFor(() => expect(calls.filter((c) => c.path === "adminScreening.queue").length).toBe(2));
  });

  it("rejects with a required reason (at most 500 characters), says the points come back; the server's refusal is shown", async () => {
    let decided = false;
    const { calls } = renderQueue({
      "adminScreening.queue": () => page([held({ id: MESSAGE_ID, kind: "message" })]),
      "adminScreening.reject": () => {
        if (decided) throw rejected(MSG.screeningAlreadyDecided);
        return { success: true, refunded: 48 };
      },
    });
    const card = await screen.findByTestId("held-card");
    await userEvent.click(within(card).getByRole("button", { name: /を却下する$/ }));
    const dialog = await screen.findByRole("dialog", { name: "メッセージの却下" });
    expect(dialog).toHaveTextContent("消費された48ptは会員に返還されます。");
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    expect(await within(dialog).findByText(MSG.screeningReasonRequired)).toBeInTheDocument();
    const reason = within(dialog).getByLabelText(/却下の理由/);
    await userEvent.click(reason);
    await userEvent.paste("あ".repeat(501));
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    expect(await within(dialog).findByText(MSG.screeningReasonTooLong)).toBeInTheDocument();
    expect(calls.some((c) => c.path === "adminScreening.reject")).toBe(false);

    await userEvent.clear(reason);
    await userEvent.paste("援助交際の勧誘");
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    expect(await screen.findByText(MSG.screeningRejected)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "メッセージの却下" })).toBeNull());
    expect(calls.filter((c) => c.path === "adminScreening.reject").map((c) => c.input)).toEqual([
      { id: MESSAGE_ID, reason: "援助交際の勧誘" },
    ]);

    // Another administrator decided it meanwhile: the server's message, the dialog kept.
    decided = true;
    await userEvent.click(within(card).getByRole("button", { name: /を却下する$/ }));
    const again = await screen.findByRole("dialog", { name: "メッセージの却下" });
    await userEvent.click(within(again).getByLabelText(/却下の理由/));
    await userEvent.paste("勧誘");
    await userEvent.click(within(again).getByRole("button", { name: "却下する" }));
    expect(await within(again).findByText(MSG.screeningAlreadyDecided)).toBeInTheDocument();
  });

  it("filters by status and kind, starting again at page 1; 対応済み shows the decision and no buttons", async () => {
    const { calls } = renderQueue({
      "adminScreening.queue": (input) =>
        input.status === "decided"
          ? page([
              held({
                id: POST_ID,
                kind: "board_post",
                title: "件名",
                status: "rejected",
                decidedAt: new Date("2026-11-21T10:00:00Z"),
                reason: "勧誘",
              }),
            ])
          : page([]),
    });
    expect(await screen.findByText("確認待ちの投稿・メッセージはありません。")).toBeInTheDocument();
    await userEvent.click(screen.getByText("投稿"));
    await userEvent.click(screen.getByText("対応済み"));
    const card = await screen.findByTestId("held-card");
    expect(within(card).getByText("却下")).toBeInTheDocument();
    expect(card).toHaveTextContent("却下の理由: 勧誘");
    expect(within(card).queryByRole("button")).toBeNull();
    expect(calls.filter((c) => c.path === "adminScreening.queue").map((c) => c.input)).toEqual([
      { status: "held", page: 1 },
      { status: "held", page: 1, kind: "board_post" },
      { status: "decided", page: 1, kind: "board_post" },
    ]);
  });
});
