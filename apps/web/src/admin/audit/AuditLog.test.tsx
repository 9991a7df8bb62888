import { MSG } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { AuditLog } from "./AuditLog";

type Entry = RouterOutputs["adminAudit"]["list"]["entries"][number];

const entry: Entry = {
  id: "e1",
  admin: { id: "a1", userID: "admin", name: "運営" },
  action: "user.update",
  targetType: "user",
  targetId: "u1",
  details: { before: { points: 100 }, after: { points: 150 } },
  createdAt: new Date("2025-08-21T09:30:00Z"),
};
const answer = (entries: Entry[]) => ({
  entries,
  pagination: { total: entries.length, totalCapped: false, totalPages: 1, currentPage: 1, limit: 50 },
});

describe("AuditLog", () => {
  it("shows the table and sends the filters to the server from page 1", async () => {
    const { calls } = renderWithProviders(<AuditLog />, {
      "adminAudit.list": () => answer([entry]),
      "adminAudit.actions": () => ["user.update"],
    });
    const table = await screen.findByRole("table", { name: "監査ログ" });
    for (const name of ["日時", "管理者", "操作", "対象", "変更内容"])
      expect(within(table).getByRole("columnheader", { name })).toBeInTheDocument();
    expect(within(table).getByText("points: 100 → 150")).toBeInTheDocument();
    expect(within(table).getByText("ユーザー更新")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("管理者ID"), "admin");
    await userEvent.type(screen.getByLabelText("開始日"), "2025年8月1日");
    await userEvent.tab();
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "adminAudit.list").at(-1)?.input).toEqual({
        adminUserID: "admin",
        dateFrom: "2025-08-01",
        page: 1,
        limit: 50,
      }),
    );
  }, 20_000);

  it("says 1,000件以上 when the server stopped counting at its cap", async () => {
    renderWithProviders(<AuditLog />, {
      "adminAudit.list": () => ({
        entries: [entry],
        pagination: { total: 1000, totalCapped: true, totalPages: 21, currentPage: 1, limit: 50 },
      }),
      "adminAudit.actions": () => ["user.update"],
    });
    expect(await screen.findByTestId("audit-total")).toHaveTextContent("1,000件以上");
  });

  it("refuses a reversed date range before asking the server", async () => {
    const { calls } = renderWithProviders(<AuditLog />, {
      "adminAudit.list": () => answer([]),
      "adminAudit.actions": () => [],
    });
    await screen.findByText("監査ログはまだありません");
    await userEvent.type(screen.getByLabelText("開始日"), "2025-09-01");
    await userEvent.tab();
    await userEvent.type(screen.getByLabelText("終了日"), "2025/8/1");
    await userEvent.tab();
    const before = calls.length;
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    expect(await screen.findByText(MSG.auditDateRangeInvalid)).toBeInTheDocument();
    expect(calls.length).toBe(before);
  }, 20_000);

  it("a failed fetch shows an error with retry", async () => {
    let fail = true;
    renderWithProviders(<AuditLog />, {
      "adminAudit.list": () => {
        if (fail) throw new Error("down");
        return answer([entry]);
      },
      "adminAudit.actions": () => [],
    });
    expect(await screen.findByText(MSG.auditFetchFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByRole("table", { name: "監査ログ" })).toBeInTheDocument();
  });
});
