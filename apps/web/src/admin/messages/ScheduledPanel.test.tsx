import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { ScheduledPanel } from "./ScheduledPanel";

type ScheduledEntry = RouterOutputs["scheduled"]["adminPending"][number];

const entry = (
  id: string,
  content: string,
  senderUser: { id: string; name: string | null } | null,
  status: ScheduledEntry["status"] = "pending",
): ScheduledEntry => ({
  id,
  type: "direct",
  recipients: [{ id: "r1", name: "花子" }],
  content,
  scheduledAt: new Date("2030-01-02T03:04:00Z"),
  createdAt: new Date("2029-12-31T00:00:00Z"),
  source: "admin:user-mgmt",
  status,
  lastError: status === "failed" ? "ポイントが不足しています" : null,
  senderUser,
});

describe("ScheduledPanel", () => {
  it("names the sender, 不明 when unknown, shows a failure, and cancels only after confirmation", async () => {
    const { calls } = renderWithProviders(<ScheduledPanel source="all" />, {
      "scheduled.adminPending": () => [
        entry("11111111-1111-4111-8111-111111111111", "太郎として送る", { id: "u1", name: "太郎" }),
        entry("22222222-2222-4222-8222-222222222222", "名前のない送信者", { id: "u2", name: null }),
        entry("33333333-3333-4333-8333-333333333333", "管理者から", null, "failed"),
      ],
      "scheduled.cancel": () => ({ success: true }),
    });
    const first = (await screen.findByText("太郎として送る")).closest("li") as HTMLElement;
    expect(first).toHaveTextContent("送信者: 太郎");
    expect(screen.getByText("名前のない送信者").closest("li")).toHaveTextContent("送信者: 不明");
    const failed = screen.getByText("管理者から").closest("li") as HTMLElement;
    expect(failed).toHaveTextContent("失敗");
    expect(failed).toHaveTextContent("ポイントが不足しています");

    await userEvent.click(within(first).getByRole("button", { name: "取消" }));
    const dialog = await screen.findByRole("dialog", { name: "予約の取り消し" });
    await userEvent.click(within(dialog).getByRole("button", { name: "キャンセル" }));
    expect(calls.some((c) => c.path === "scheduled.cancel")).toBe(false);

    await userEvent.click(within(first).getByRole("button", { name: "取消" }));
    await userEvent.click(await screen.findByRole("button", { name: "取り消す" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "scheduled.cancel").map((c) => c.input)).toEqual([
        { id: "11111111-1111-4111-8111-111111111111" },
      ]),
    );
  }, 30_000);

  it("offers a retry when the list cannot be fetched", async () => {
    let fail = true;
    const { calls } = renderWithProviders(<ScheduledPanel source="admin:sent" />, {
      "scheduled.list": () => {
        if (fail) throw new Error("down");
        return [];
      },
    });
    expect(await screen.findByText("予約の取得に失敗しました。")).toBeInTheDocument();
    const asked = calls.filter((c) => c.path === "scheduled.list").length;
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("予約中のメッセージはありません。")).toBeInTheDocument();
    expect(screen.queryByText("予約の取得に失敗しました。")).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === "scheduled.list").length).toBeGreaterThan(asked);
  }, 30_000);
});
