import { ADMIN_MESSAGE_PAGE_SIZE_ALL } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type Handlers, renderWithProviders } from "../../test/render";
import { EmailManagement } from "./EmailManagement";

const party = (id: string, name: string, role: "user" | "admin" = "user") => ({
  id,
  userID: `${id}-login`,
  name,
  email: `${id}@example.jp`,
  photoLink: null,
  role,
});
const taro = party("00000000-0000-4000-8000-000000000001", "太郎");
const hanako = party("00000000-0000-4000-8000-000000000002", "花子");
const admin = party("00000000-0000-4000-8000-000000000003", "管理者", "admin");

function message(n: number, body = `本文${n}`) {
  return {
    id: `00000000-0000-4000-9000-${String(n).padStart(12, "0")}`,
    body,
    createdAt: new Date("2026-01-02T03:04:00Z"),
    isRead: n % 2 === 0,
    hasReply: false,
    replyToId: null,
    from: n === 1 ? admin : taro,
    to: hanako,
    sentByAdmin: null,
  };
}

type ListInput = { page: number; limit: number; search: string; status: string };

function handlers(updates: unknown[] = []): Handlers {
  return {
    "adminMessages.list": (input) => {
      const { page, limit } = input as ListInput;
      return {
        searchWindow: null,
        messages: [message(1, "<b>太字ではない</b>"), message(2)],
        total: 1000,
        totalCapped: false,
        page,
        limit,
        totalPages: Math.ceil(1000 / limit),
      };
    },
    "adminMessages.update": (input) => {
      updates.push(input);
      return { success: true as const };
    },
    "scheduled.list": () => [],
  };
}

const listCalls = (calls: { path: string; input: unknown }[]) =>
  calls.filter((c) => c.path === "adminMessages.list").map((c) => c.input as ListInput);

describe("EmailManagement", () => {
  it("pages with a window of five and ellipses, and goes back to page 1 when the filter or page size changes", async () => {
    const { calls } = renderWithProviders(<EmailManagement />, handlers());
    await screen.findByText("<b>太字ではない</b>");
    expect(listCalls(calls)[0]).toMatchObject({ page: 1, limit: 50, status: "all", search: "" });
    const pages = screen.getByRole("navigation", { name: "メッセージ一覧のページ" });
    expect(within(pages).getByRole("button", { name: "前へ" })).toBeDisabled();
    expect(within(pages).getByRole("button", { name: "20ページ目" })).toBeInTheDocument();
    expect(within(pages).queryByRole("button", { name: "6ページ目" })).not.toBeInTheDocument();

    await userEvent.click(within(pages).getByRole("button", { name: "5ページ目" }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 5 }));
    expect(within(pages).getByRole("button", { name: "5ページ目" })).toHaveAttribute("aria-current", "page");
    expect(within(pages).getByRole("button", { name: "7ページ目" })).toBeInTheDocument();
    expect(within(pages).getByRole("button", { name: "1ページ目" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("combobox", { name: "状態" }));
    await userEvent.click(
      within(await screen.findByRole("listbox", { name: "状態", hidden: true })).getByRole("option", {
        name: "未読",
        hidden: true,
      }),
    );
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 1, status: "unread" }));

    await userEvent.click(within(pages).getByRole("button", { name: "次へ" }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 2 }));
    await userEvent.click(screen.getByRole("combobox", { name: "表示件数" }));
    await userEvent.click(
      within(await screen.findByRole("listbox", { name: "表示件数", hidden: true })).getByRole("option", {
        name: "すべて",
        hidden: true,
      }),
    );
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 1, limit: ADMIN_MESSAGE_PAGE_SIZE_ALL }));
    // "all" is one page: no page buttons.
    await waitFor(() => expect(screen.queryByRole("navigation", { name: "メッセージ一覧のページ" })).toBeNull());

    await userEvent.type(screen.getByRole("textbox", { name: "検索" }), "花子");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: 1, search: "花子" }));
  }, 30_000);

  it("numbers rows, offers send-as-user only on members' avatars, and disables update while the body is blank", async () => {
    const updates: unknown[] = [];
    renderWithProviders(<EmailManagement />, handlers(updates));
    const row = (await screen.findByText("本文2")).closest("tr") as HTMLElement;
    expect(within(row).getByText("2")).toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "太郎（00000000-0000-4000-8000-000000000001-login）として花子に送信" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^管理者（.*）として/ })).toBeNull();

    await userEvent.click(within(row).getByRole("button", { name: "編集" }));
    const dialog = await screen.findByRole("dialog", { name: "メッセージを編集" });
    const body = within(dialog).getByLabelText("内容");
    await userEvent.clear(body);
    await userEvent.type(body, "   ");
    expect(within(dialog).getByRole("button", { name: "更新" })).toBeDisabled();
    await userEvent.clear(body);
    await userEvent.type(body, "直した本文");
    await userEvent.click(within(dialog).getByRole("button", { name: "更新" }));
    await waitFor(() => expect(updates).toEqual([{ id: message(2).id, body: "直した本文" }]));
  }, 30_000);
});
