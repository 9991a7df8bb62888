import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { type AdminBoardPost, boardPage, publicProfile } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { BoardManagement } from "./BoardManagement";

const httpError = (httpStatus: number, message: string) =>
  new TRPCClientError(message, {
    result: { error: { code: -32000, message, data: { httpStatus } } },
  } as never);

const ID1 = "11111111-1111-4111-8111-111111111111";
const ID2 = "22222222-2222-4222-8222-222222222222";
const post = (id: string, title: string, content: string, extra: Partial<AdminBoardPost> = {}): AdminBoardPost => ({
  id,
  title,
  content,
  createdAt: new Date("2026-11-20T10:00:00Z"),
  author: { ...publicProfile({ id: "a1", name: "花子", gender: "female", age: 28 }), userID: "hanako01" },
  byOperator: false,
  operator: null,
  readerCount: 4,
  likeCount: 2,
  dislikeCount: 1,
  myReaction: null,
  isRead: false,
  isMine: false,
  ...extra,
});
const page = (posts: AdminBoardPost[]) => boardPage(posts);
const stats = () => ({ totalPosts: 1234, totalViews: 56, totalLikes: 7, totalDislikes: 0 });

function renderPage(handlers: Handlers) {
  return renderWithProviders(
    <>
      <Notifications />
      <BoardManagement />
    </>,
    { "adminBoard.stats": stats, ...handlers },
  );
}

describe("BoardManagement", { timeout: 15_000 }, () => {
  it("shows the four tiles and post cards that expand above 100 characters, with the poster's ID", async () => {
    renderPage({ "adminBoard.list": () => page([post(ID1, "長い投稿", "あ".repeat(101))]) });
    await screen.findByText("1,234件");
    expect(screen.getByTestId("tile-totalPosts")).toHaveTextContent("総投稿数1,234件");
    expect(screen.getByTestId("tile-totalViews")).toHaveTextContent("総閲覧数56回");
    expect(screen.getByTestId("tile-totalLikes")).toHaveTextContent("総いいね数7件");
    expect(screen.getByTestId("tile-totalDislikes")).toHaveTextContent("総よくないね数0件");
    const card = await screen.findByRole("article", { name: /長い投稿/ });
    expect(within(card).getByText("ID: hanako01")).toBeInTheDocument();
    expect(within(card).getByTestId("post-content").textContent).toBe(`${"あ".repeat(100)}…`);
    await userEvent.click(within(card).getByRole("button", { name: "続きを読む" }));
    expect(within(card).getByTestId("post-content").textContent).toBe("あ".repeat(101));
    expect(within(card).getByTestId("reader-count")).toHaveTextContent("4");
  });

  it("searches by user ID and clears it", async () => {
    const { calls } = renderPage({
      "adminBoard.list": (input) =>
        (input as { userID?: string }).userID ? page([]) : page([post(ID1, "だれかの投稿", "本文")]),
    });
    await screen.findByRole("article");
    await userEvent.click(screen.getByLabelText("ユーザーID"));
    await userEvent.paste(" nobody ");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    expect(await screen.findByText("ユーザーID「nobody」の投稿はありません。")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "クリア" }));
    await screen.findByRole("article");
    expect(screen.getByLabelText("ユーザーID")).toHaveValue("");
    expect(calls.filter((c) => c.path === "adminBoard.list").map((c) => c.input)).toEqual([
      { page: 1 },
      { page: 1, userID: "nobody" },
      { page: 1 },
    ]);
  });

  it("posts as the operator (title and content only) and deletes after the irreversible confirmation", async () => {
    let posts = [post(ID1, "不適切な投稿", "本文")];
    const { calls } = renderPage({
      "adminBoard.list": () => page(posts),
      "adminBoard.create": (input) => {
        const created = post(ID2, (input as { title: string }).title, "お知らせ", {
          author: null,
          byOperator: true,
          operator: { id: "admin1", name: "管理 一郎" },
        });
        posts = [created, ...posts];
        return created;
      },
      "adminBoard.delete": (input) => {
        posts = posts.filter((p) => p.id !== (input as { id: string }).id);
        return { ok: true as const };
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "新規投稿" }));
    const dialog = await screen.findByRole("dialog", { name: "新規投稿（運営として投稿）" });
    expect(within(dialog).queryByRole("button", { name: "絵文字" })).toBeNull();
    await userEvent.click(within(dialog).getByLabelText(/タイトル/));
    await userEvent.paste("メンテナンスのお知らせ");
    await userEvent.click(within(dialog).getByLabelText(/内容/));
    await userEvent.paste("お知らせ");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(await screen.findByText("投稿が完了しました！")).toBeInTheDocument();
    const operator = await screen.findByRole("article", { name: /メンテナンスのお知らせ/ });
    expect(within(operator).getByTestId("post-author")).toHaveTextContent("運営事務局");
    expect(within(operator).getByText("投稿した管理者: 管理 一郎")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "投稿「不適切な投稿」を削除" }));
    const confirm = await screen.findByRole("dialog", { name: "投稿の削除" });
    expect(within(confirm).getByText("この操作は取り消せません。")).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole("button", { name: "削除する" }));
    expect(await screen.findByText("投稿が削除されました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminBoard.delete").map((c) => c.input)).toEqual([{ id: ID1 }]);
    await waitFor(() => expect(screen.queryByRole("article", { name: /不適切な投稿/ })).toBeNull());
  });

  it("shows failures: the list with a retry, the tiles with a retry, a failed deletion's message", async () => {
    let listFails = true;
    renderPage({
      "adminBoard.stats": () => {
        throw httpError(500, "Internal server error");
      },
      "adminBoard.list": () => {
        if (listFails) throw httpError(500, "Internal server error");
        return page([post(ID1, "残る投稿", "本文")]);
      },
      "adminBoard.delete": () => {
        throw httpError(500, "Internal server error");
      },
    });
    expect(await screen.findByText("集計の取得に失敗しました。")).toBeInTheDocument();
    expect(await screen.findByText("投稿の取得に失敗しました")).toBeInTheDocument();
    listFails = false;
    const retries = screen.getAllByRole("button", { name: "再試行" });
    expect(retries).toHaveLength(2);
    await userEvent.click(retries[1] as HTMLElement);
    await userEvent.click(await screen.findByRole("button", { name: "投稿「残る投稿」を削除" }));
    await userEvent.click(await screen.findByRole("button", { name: "削除する" }));
    expect(await screen.findByText("投稿の削除に失敗しました")).toBeInTheDocument();
    expect(screen.getByRole("article", { name: /残る投稿/ })).toBeInTheDocument();
  });
});
