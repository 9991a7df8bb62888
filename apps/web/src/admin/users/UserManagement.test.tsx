import { Notifications } from "@mantine/notifications";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { member } from "../../test/fixtures";
import { fakeMediaQueryList } from "../../test/media-query";
import { renderWithProviders } from "../../test/render";
import { UserManagement, usersCsvPath } from "./UserManagement";

const page = (total: number, totalEstimated: boolean) => ({
  users: [],
  total,
  totalEstimated,
  totalCapped: false,
  allUsers: total,
  allUsersEstimated: totalEstimated,
  page: 1,
  pageSize: 50,
  totalPages: Math.max(1, Math.ceil(total / 50)),
});

describe("UserManagement total", () => {
  it("shows an exact count as it is", async () => {
    renderWithProviders(<UserManagement />, { "adminUsers.list": () => page(7, false) });
    expect(await screen.findByText("総ユーザー数: 7人")).toBeInTheDocument();
  });

  it("marks the server's estimate (above 10,000 members) with 約", async () => {
    renderWithProviders(<UserManagement />, { "adminUsers.list": () => page(1_000_000, true) });
    expect(await screen.findByText("総ユーザー数: 約1,000,000人")).toBeInTheDocument();
  });
});

const listed = (i: number, suspended: boolean) =>
  member({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    userID: `row${i}`,
    name: `会員${i}`,
    email: `row${i}@example.jp`,
    gender: "male",
    suspended,
  });

describe("UserManagement standing buttons", { timeout: 30_000 }, () => {
  it("draws every row's 利用停止 / 停止解除 from the list itself, with no read per row", async () => {
    const users = Array.from({ length: 50 }, (_, i) => listed(i, i % 7 === 3));
    const { calls } = renderWithProviders(<UserManagement />, {
      "adminUsers.list": () => ({ ...page(50, false), users }),
    });
    const table = await screen.findByRole("table", { name: "ユーザー一覧" });
    await within(table).findByText("row49");
    const labels = within(table)
      .getAllByRole("button")
      .map((b) => b.getAttribute("aria-label"))
      .filter((label) => label && /利用停止|停止解除/.test(label));
    expect(labels).toEqual(
      users.map((user) => (user.suspended ? `${user.userID}の停止解除` : `${user.userID}を利用停止`)),
    );
    expect(calls.filter((c) => c.path === "adminModeration.standing")).toEqual([]);
  });

  it("a failed list read says so with a retry button, which reads again", async () => {
    let fail = true;
    renderWithProviders(<UserManagement />, {
      "adminUsers.list": () => {
        if (fail) {
          throw new TRPCClientError("サーバーでエラーが発生しました。", {
            result: { error: { code: -32603, message: "x", data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } } },
          } as never);
        }
        return { ...page(1, false), users: [listed(1, false)] };
      },
    });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("ユーザー一覧の取得に失敗しました。");
    fail = false;
    await userEvent.click(within(alert).getByRole("button", { name: "再読み込み" }));
    expect(await screen.findByRole("button", { name: "row1を利用停止" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("UserManagement search and export (decision 0036)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("searches one keyword box (name, e-mail, user ID) and tells the total and the matches apart", async () => {
    const { calls } = renderWithProviders(<UserManagement />, {
      "adminUsers.list": (input) =>
        input.q
          ? { ...page(3, false), allUsers: 1234, users: [listed(1, false)] }
          : { ...page(1234, false), users: [listed(1, false)] },
    });
    expect(await screen.findByText("総ユーザー数: 1,234人")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("検索キーワード"), "佐藤");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    expect(await screen.findByText("総ユーザー数: 1,234人／該当: 3人")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminUsers.list").at(-1)?.input).toMatchObject({ q: "佐藤", page: 1 });
  });

  it("says a capped number of matches is a lower bound", async () => {
    renderWithProviders(<UserManagement />, {
      "adminUsers.list": (input) =>
        input.q
          ? { ...page(1000, false), totalCapped: true, allUsers: 1_000_000, allUsersEstimated: true }
          : page(1, false),
    });
    await userEvent.type(await screen.findByLabelText("検索キーワード"), "会員");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    expect(await screen.findByText("総ユーザー数: 約1,000,000人／該当: 1,000人以上")).toBeInTheDocument();
  });

  it("downloads the filtered members as CSV with the session's token", async () => {
    const fetchMock = vi.fn(async () => new Response("\uFEFFユーザーID\r\n", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    const createUrl = vi.fn(() => "blob:members");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() }));
    renderWithProviders(
      <>
        <Notifications />
        <UserManagement />
      </>,
      { "adminUsers.list": () => page(1, false) },
    );
    await userEvent.type(await screen.findByLabelText("検索キーワード"), "sato@example.com");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await userEvent.click(screen.getByRole("button", { name: "CSVダウンロード" }));
    expect(await screen.findByText("会員一覧をCSVでダウンロードしました。")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe("/api/admin/users.csv?q=sato%40example.com");
    expect(createUrl).toHaveBeenCalledTimes(1);
  });

  it("builds the CSV address from the same filter as the list", () => {
    expect(usersCsvPath("", "")).toBe("/api/admin/users.csv");
    expect(usersCsvPath("佐藤", "female")).toBe(
      `/api/admin/users.csv?q=${encodeURIComponent("佐藤")}&field=gender&search=female`,
    );
  });
});

describe("UserManagement on a phone", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("draws a card per user with every button, no table; 編集 opens the edit", async () => {
    vi.spyOn(window, "matchMedia").mockImplementation((query: string) =>
      fakeMediaQueryList(query, query.includes("max-width: 48em")),
    );
    const admin = { ...listed(9, false), userID: "boss", name: "管理者", role: "admin" as const };
    renderWithProviders(<UserManagement />, {
      "adminUsers.list": () => ({ ...page(2, false), users: [listed(1, false), admin] }),
    });
    const list = await screen.findByRole("list", { name: "ユーザー一覧" });
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    const card = await within(list).findByRole("listitem", { name: "会員1（row1）" });
    for (const name of ["編集", "履歴", "メッセージ", "row1を利用停止", "削除", "row1の送信ポイントを編集"])
      expect(within(card).getByRole("button", { name })).toBeVisible();
    const adminCard = within(list).getByRole("listitem", { name: "管理者（boss）" });
    expect(within(adminCard).queryByRole("button", { name: "削除" })).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "編集" }));
    expect(await screen.findByRole("dialog", { name: "ユーザー編集: row1" })).toBeInTheDocument();
  });
});
