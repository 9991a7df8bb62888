import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { ModerationQueue } from "../../admin/moderation/ModerationQueue";
import type { RouterOutputs } from "../../lib/api-types";
import { BlockedList } from "../../member/safety/BlockedList";
import { renderWithProviders } from "../../test/render";
import { ReportButton } from "./ReportDialog";

const refused = (message: string, httpStatus: number) =>
  new TRPCClientError(message, {
    result: { error: { code: -32000, message, data: { httpStatus } } },
  } as never);

const hanako = {
  id: "11111111-1111-4111-8111-111111111111",
  name: "花子",
  photoLink: null,
  gender: "female" as const,
  age: 28,
  prefecture: "東京都",
  occupation: null,
  annualIncome: null,
  createdAt: new Date("2026-11-01T00:00:00Z"),
  verified: true,
  blockedAt: new Date("2026-11-20T00:00:00Z"),
};

describe("ReportDialog", () => {
  const target = {
    type: "message" as const,
    id: "33333333-3333-4333-8333-333333333333",
    label: "花子さんからのメッセージ",
  };

  it("needs a reason, and a detail for その他; sends the report and says so", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <ReportButton target={target} />
      </>,
      { "safety.report": () => ({ success: true, id: "r1", message: MSG.reportDone }) },
    );
    await userEvent.click(screen.getByRole("button", { name: "花子さんからのメッセージを報告" }));
    const dialog = await screen.findByRole("dialog", { name: "運営に報告する" });
    await userEvent.click(within(dialog).getByRole("button", { name: "報告する" }));
    expect(await within(dialog).findByText(MSG.reportReasonInvalid)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByLabelText("その他"));
    await userEvent.click(within(dialog).getByRole("button", { name: "報告する" }));
    expect(await within(dialog).findByText(MSG.reportDetailRequired)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "safety.report")).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText(/詳しい内容/), "しつこい勧誘");
    await userEvent.click(within(dialog).getByRole("button", { name: "報告する" }));
    expect(await screen.findByText(MSG.reportDone)).toBeInTheDocument();
    expect(calls.find((c) => c.path === "safety.report")?.input).toEqual({
      targetType: "message",
      targetId: target.id,
      reason: "other",
      detail: "しつこい勧誘",
    });
  });

  it("shows the server's refusal and stays open", async () => {
    renderWithProviders(
      <>
        <Notifications />
        <ReportButton target={target} />
      </>,
      {
        "safety.report": () => {
          throw refused(MSG.reportDuplicate, 409);
        },
      },
    );
    await userEvent.click(screen.getByRole("button", { name: "花子さんからのメッセージを報告" }));
    const dialog = await screen.findByRole("dialog", { name: "運営に報告する" });
    await userEvent.click(within(dialog).getByLabelText("18歳未満の疑い"));
    await userEvent.click(within(dialog).getByRole("button", { name: "報告する" }));
    expect(await within(dialog).findByText(MSG.reportDuplicate)).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "運営に報告する" })).toBeInTheDocument();
  });
});

describe("BlockedList", () => {
  it("loading, then the error with a retry, then the list; unblocks after a confirmation", async () => {
    let fail = true;
    let list = [hanako];
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <BlockedList />
      </>,
      {
        "safety.blocked": () => {
          if (fail) throw new Error("down");
          return list;
        },
        "safety.unblock": () => {
          list = [];
          return { success: true };
        },
      },
    );
    expect(screen.getByText("読み込み中...")).toBeInTheDocument();
    expect(await screen.findByText("ブロックリストの取得に失敗しました。")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    const card = await screen.findByTestId("blocked-card");
    expect(within(card).getByText("花子")).toBeInTheDocument();
    expect(within(card).getByText(/2026年11月20日/)).toBeInTheDocument();

    await userEvent.click(within(card).getByRole("button", { name: "花子さんのブロックを解除" }));
    const confirm = await screen.findByRole("dialog", { name: "ブロックの解除" });
    await userEvent.click(within(confirm).getByRole("button", { name: "解除する" }));
    expect(await screen.findByText("花子さんのブロックを解除しました。")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "safety.unblock")?.input).toEqual({ userId: hanako.id });
    expect(await screen.findByText("ブロックしている会員はいません。")).toBeInTheDocument();
  });
});

type Report = RouterOutputs["adminModeration"]["queue"]["reports"][number];

const party = (id: string, name: string, userID: string) => ({
  id,
  userID,
  name,
  role: "user" as const,
  suspendedAt: null,
  deleted: false,
});

const report: Report = {
  id: "44444444-4444-4444-8444-444444444444",
  targetType: "message" as const,
  targetId: "33333333-3333-4333-8333-333333333333",
  reason: "underage" as const,
  detail: "高校生と書いていました",
  status: "open" as const,
  createdAt: new Date("2026-11-22T03:00:00Z"),
  reporter: party("a", "太郎", "taro"),
  targetUser: party("b", "花子", "hanako"),
  recentReportsAgainstUser: 2,
  recentReportsCapped: false,
  context: {
    type: "message" as const,
    body: "高校2年です。会いませんか",
    createdAt: new Date("2026-11-21T03:00:00Z"),
    removed: false,
    from: party("b", "花子", "hanako"),
    to: party("a", "太郎", "taro"),
  },
  handledBy: null,
  handledAt: null,
  handledNote: null,
};

const page = (reports: Report[]) => ({
  reports,
  total: reports.length,
  totalCapped: false,
  page: 1,
  limit: 20,
  totalPages: 1,
});

describe("ModerationQueue", () => {
  it("shows each report with its content in context and dismisses with an optional note after confirming", async () => {
    let reports: Report[] = [report];
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <ModerationQueue />
      </>,
      {
        "adminModeration.queue": () => page(reports),
        "adminModeration.dismiss": () => {
          reports = [];
          return { success: true };
        },
      },
    );
    const card = await screen.findByTestId("report-card");
    expect(within(card).getByText("18歳未満の疑い")).toBeInTheDocument();
    expect(within(card).getByText("高校2年です。会いませんか")).toBeInTheDocument();
    expect(within(card).getByText("高校生と書いていました")).toBeInTheDocument();
    expect(within(card).getByText("直近90日の報告 2件")).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "対応不要" }));
    const dialog = await screen.findByRole("dialog", { name: "対応不要にする" });
    await userEvent.type(within(dialog).getByLabelText(/メモ/), "年齢確認済み");
    await userEvent.click(within(dialog).getByRole("button", { name: "対応不要にする" }));
    expect(await screen.findByText(/報告を「対応不要」にしました/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === "adminModeration.dismiss")?.input).toEqual({
      id: report.id,
      note: "年齢確認済み",
    });
    expect(await screen.findByText("未対応の報告はありません。")).toBeInTheDocument();
  });

  it("asks before removing the content, and shows a refusal", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <ModerationQueue />
      </>,
      {
        "adminModeration.queue": () => page([report]),
        "adminModeration.removeContent": () => {
          throw refused(MSG.reportAlreadyHandled, 409);
        },
      },
    );
    const card = await screen.findByTestId("report-card");
    await userEvent.click(within(card).getByRole("button", { name: "内容を削除" }));
    const confirm = await screen.findByRole("dialog", { name: "内容の削除" });
    await userEvent.click(within(confirm).getByRole("button", { name: "キャンセル" }));
    expect(calls.filter((c) => c.path === "adminModeration.removeContent")).toHaveLength(0);
    await userEvent.click(within(card).getByRole("button", { name: "内容を削除" }));
    await userEvent.click(
      within(await screen.findByRole("dialog", { name: "内容の削除" })).getByRole("button", { name: "削除する" }),
    );
    expect(await screen.findByText(MSG.reportAlreadyHandled)).toBeInTheDocument();
  });

  it("shows the error with a retry", async () => {
    let fail = true;
    renderWithProviders(<ModerationQueue />, {
      "adminModeration.queue": () => {
        if (fail) throw new Error("down");
        return page([]);
      },
    });
    expect(await screen.findByText("報告一覧の取得に失敗しました。")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("未対応の報告はありません。")).toBeInTheDocument();
  });
});
