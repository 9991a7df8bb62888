import { TERMS_VERSION } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { me as fixtureMe, verificationStatus } from "../test/fixtures";
import { fakeMediaQueryList } from "../test/media-query";
import { type Handlers, renderWithProviders } from "../test/render";
import MemberShell from "./MemberShell";

const me = fixtureMe({
  id: "00000000-0000-4000-8000-000000000001",
  userID: "shelltaro",
  name: "殻 太郎",
  email: "shelltaro@example.jp",
  points: 1234567,
  createdAt: new Date("2026-01-05T00:00:00Z"),
});

const handlers: Handlers = {
  "profile.me": () => me,
  "messages.unreadCount": () => ({ count: 12 }),
  "messages.onUnreadCount": () => ({ count: 12, points: me.points, change: "start", credited: [] }),
  "verification.status": () => verificationStatus("verified"),
  // The first-sign-in gate (decision 0034): this member accepted the terms in force.
  "account.consent": () => ({
    termsVersion: TERMS_VERSION,
    acceptedAt: new Date("2026-01-05T00:00:00Z"),
    currentVersion: TERMS_VERSION,
    required: false,
  }),
  "account.pointBalance": () => ({ total: 0, purchased: 0, free: 0, nextExpiry: null, schedule: [] }),
  "reference.occupations.list": () => [],
  "reference.annualIncomes.list": () => [],
};

/** The shell as a phone (768 px or less) or a desktop sees it. */
function atWidth(narrow: boolean) {
  vi.spyOn(window, "matchMedia").mockImplementation((query: string) =>
    fakeMediaQueryList(query, narrow && query.includes("max-width: 768px")),
  );
}

afterEach(() => vi.restoreAllMocks());

describe("MemberShell header", () => {
  it("follows the live balance: a payment credited shows in the header with 「{n}ptが加算されました」", async () => {
    atWidth(false);
    renderWithProviders(
      <>
        <Notifications />
        <MemberShell />
      </>,
      {
        ...handlers,
        // The stream's answer after an administrator confirmed a payment of 500 points.
        "messages.onUnreadCount": () => ({
          count: 12,
          points: me.points + 500,
          change: "balance",
          credited: [{ transactionId: "TX20261201ABCDEFGH", points: 500 }],
        }),
      },
    );
    const header = screen.getByRole("banner");
    await waitFor(() => expect(within(header).getByLabelText("所持ポイント")).toHaveTextContent("1,235,067pt"), {
      timeout: 5000,
    });
    expect(await screen.findByText("500ptが加算されました")).toBeInTheDocument();
  });

  it("on a desktop shows 未読 N件, the points, ポイント購入 and ログアウト in the header", async () => {
    atWidth(false);
    renderWithProviders(<MemberShell />, handlers);
    const header = screen.getByRole("banner");
    const unread = await within(header).findByRole("link", { name: "未読 12件" });
    expect(unread).toHaveTextContent("未読 12件");
    expect(await within(header).findByLabelText("所持ポイント")).toHaveTextContent("1,234,567pt");
    expect(within(header).getByRole("link", { name: "ポイント購入" })).toHaveTextContent("ポイント購入");
    expect(within(header).getByRole("button", { name: "ログアウト" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "メニューを開く" })).not.toBeInTheDocument();
    await screen.findByRole("heading", { name: "ダッシュボード" });
  });

  it("when narrow keeps the unread count (same name), points and 購入 in the header and moves ログアウト to the menu", async () => {
    atWidth(true);
    localStorage.setItem("token", "t");
    localStorage.setItem("role", "user");
    renderWithProviders(<MemberShell />, handlers);
    const header = screen.getByRole("banner");
    const unread = await within(header).findByRole("link", { name: "未読 12件" });
    // The word 未読 is kept for screen readers and for the text; an envelope shows it instead.
    expect(unread).toHaveTextContent("未読 12件");
    expect(unread.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
    expect(await within(header).findByLabelText("所持ポイント")).toHaveTextContent("1,234,567pt");
    expect(within(header).getByRole("link", { name: "ポイント購入" })).toHaveTextContent("購入");
    expect(within(header).queryByRole("button", { name: "ログアウト" })).not.toBeInTheDocument();

    const toggle = within(header).getByRole("button", { name: "メニューを開く" });
    await userEvent.click(toggle);
    let menu = await screen.findByRole("dialog", { name: "メニュー" });
    expect(within(menu).getByTestId("menu-unread-count")).toHaveTextContent("12件");
    // The drawer loads on this first opening; closing it still returns the focus to the toggle.
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "メニュー" })).not.toBeInTheDocument());
    await waitFor(() => expect(toggle).toHaveFocus());

    await userEvent.click(toggle);
    menu = await screen.findByRole("dialog", { name: "メニュー" });
    await userEvent.click(within(menu).getByRole("button", { name: "ログアウト" }));
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("still loads the reference lists and opens the live unread count, after the first screen", async () => {
    atWidth(false);
    const { calls } = renderWithProviders(<MemberShell />, handlers);
    await screen.findByRole("heading", { name: "ダッシュボード" });
    await waitFor(() =>
      expect(calls.map((c) => c.path)).toEqual(
        expect.arrayContaining([
          "reference.occupations.list",
          "reference.annualIncomes.list",
          "messages.onUnreadCount",
        ]),
      ),
    );
  });

  it("draws the dashboard's heading before the member's data arrives, then the data", async () => {
    atWidth(false);
    let answer: (value: typeof me) => void = () => {};
    const pending = new Promise<typeof me>((resolve) => {
      answer = resolve;
    });
    renderWithProviders(<MemberShell />, { ...handlers, "profile.me": () => pending });
    expect(await screen.findByRole("heading", { name: "ダッシュボード" })).toBeInTheDocument();
    expect(screen.getByText("読み込み中...")).toBeInTheDocument();
    expect(screen.queryByTestId("dashboard-points")).not.toBeInTheDocument();
    // Drawn whole meanwhile (the page keeps its height when the data comes): the labels, and the
    // points-expiry card, whose figures do not wait for the member's data.
    expect(screen.getByText("所持ポイント")).toBeInTheDocument();
    expect(screen.getByText("生年月日")).toBeInTheDocument();
    expect(await screen.findByTestId("point-expiry")).toHaveTextContent("有効期限が近いポイントはありません。");
    expect(screen.getByRole("button", { name: "プロフィールを編集" })).toBeDisabled();
    expect(screen.getByLabelText("会員情報")).toHaveAttribute("aria-busy", "true");
    answer(me);
    expect(await screen.findByTestId("dashboard-points")).toHaveTextContent("1,234,567pt");
    expect(screen.queryByText("読み込み中...")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "プロフィールを編集" })).toBeEnabled();
    expect(screen.getByLabelText("会員情報")).not.toHaveAttribute("aria-busy");
    expect(screen.getAllByRole("heading", { name: "ダッシュボード" })).toHaveLength(1);
  });

  it("says so when the member's data cannot be read, on the dashboard too", async () => {
    atWidth(false);
    renderWithProviders(<MemberShell />, {
      ...handlers,
      "profile.me": () => {
        throw new Error("down");
      },
    });
    expect(await screen.findByText("会員情報の取得に失敗しました。再読み込みしてください。")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "ダッシュボード" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("会員情報")).not.toBeInTheDocument();
  });

  it("names the page, starts with the skip link, and links the balance and the menu to ポイントの使い方", async () => {
    atWidth(false);
    renderWithProviders(<MemberShell />, handlers);
    await screen.findByRole("heading", { name: "ダッシュボード" });
    expect(document.title).toBe("ダッシュボード｜縁結び");
    // The first stop of the keyboard is the skip link; it moves the focus to the main content.
    await userEvent.tab();
    const skip = screen.getByRole("link", { name: "本文へスキップ" });
    expect(skip).toHaveFocus();
    await userEvent.click(skip);
    expect(screen.getByRole("main")).toHaveFocus();
    const header = screen.getByRole("banner");
    const balance = await within(header).findByLabelText("所持ポイント");
    expect(within(balance).getByRole("link", { name: "1,234,567pt" })).toHaveAttribute("href", "/user/points-usage");
    const menu = screen.getByRole("navigation", { name: "会員メニュー" });
    expect(within(menu).getByRole("link", { name: "ポイントの使い方" })).toHaveAttribute("href", "/user/points-usage");
    expect(within(menu).getByText("メッセージ", { selector: "p" })).toBeInTheDocument();
  });
});
