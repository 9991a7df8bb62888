import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { type BoardPost, publicProfile } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { NewPostDialog } from "./NewPostDialog";
import { PostCard } from "./PostCard";
import { foldText, PostContent } from "./PostContent";
import { ReactionButtons } from "./ReactionButtons";

const post = (content: string, extra: Partial<BoardPost> = {}): BoardPost => ({
  id: "11111111-1111-4111-8111-111111111111",
  title: "東京で食事しませんか",
  content,
  createdAt: new Date("2026-11-20T10:00:00Z"),
  author: publicProfile({ id: "a1", name: "花子", gender: "female", age: 28 }),
  byOperator: false,
  readerCount: 3,
  likeCount: 2,
  dislikeCount: 1,
  myReaction: null,
  isRead: false,
  isMine: false,
  ...extra,
});

describe("PostContent", { timeout: 15_000 }, () => {
  it("folds content above 150 characters: its start, then 続きを読む / 閉じる (aria-expanded)", async () => {
    const long = `${"あ".repeat(150)}いうえお`;
    renderWithProviders(<PostContent content={long} />);
    const text = screen.getByTestId("post-content");
    expect(text.textContent).toBe(`${"あ".repeat(150)}…`);
    const toggle = screen.getByRole("button", { name: "続きを読む" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveAttribute("aria-controls", text.id);
    await userEvent.click(toggle);
    expect(text.textContent).toBe(long);
    expect(screen.getByRole("button", { name: "閉じる" })).toHaveAttribute("aria-expanded", "true");
    await userEvent.click(screen.getByRole("button", { name: "閉じる" }));
    expect(text.textContent).toBe(`${"あ".repeat(150)}…`);
  });

  it("does not fold 150 characters; board management folds above 100", () => {
    renderWithProviders(
      <>
        <PostContent content={"い".repeat(150)} />
        <PostContent content={"う".repeat(101)} foldAt={100} />
      </>,
    );
    expect(screen.getAllByRole("button", { name: "続きを読む" })).toHaveLength(1);
    expect(screen.getAllByTestId("post-content")[1]?.textContent).toBe(`${"う".repeat(100)}…`);
  });

  it("counts an emoji as one character and never cuts it in half", () => {
    expect(foldText(`${"😀".repeat(151)}`, 150)).toBe(`${"😀".repeat(150)}…`);
    expect(foldText("😀".repeat(150), 150)).toBe("😀".repeat(150));
  });

  it("shows HTML as typed, never as markup", () => {
    renderWithProviders(<PostCard post={post("<b>太字</b><img src=x onerror=alert(1)>")} />);
    expect(screen.getByTestId("post-content").textContent).toBe("<b>太字</b><img src=x onerror=alert(1)>");
    expect(document.querySelector("b")).toBeNull();
    expect(screen.queryByRole("img", { name: "" })).toBeNull();
  });
});

describe("PostCard", { timeout: 15_000 }, () => {
  it("names the author, the operator for an administrator's post, and offers delete by title", async () => {
    const onDelete = vi.fn();
    renderWithProviders(
      <>
        <PostCard post={post("本文")} onDelete={onDelete} />
        <PostCard post={post("お知らせ", { id: "op", title: "運営から", author: null, byOperator: true })} />
      </>,
    );
    const [mine, operator] = screen.getAllByTestId("board-post") as [HTMLElement, HTMLElement];
    expect(within(mine).getByTestId("post-author")).toHaveTextContent("花子");
    expect(within(mine).getByText("28歳・女性")).toBeInTheDocument();
    expect(within(operator).getByTestId("post-author")).toHaveTextContent("運営事務局");
    await userEvent.click(within(mine).getByRole("button", { name: "投稿「東京で食事しませんか」を削除" }));
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(within(operator).queryByRole("button", { name: /を削除$/ })).toBeNull();
  });
});

describe("ReactionButtons", { timeout: 15_000 }, () => {
  it("shows the counts, the pressed state (aria-pressed) and a read post as read", async () => {
    const onReact = vi.fn();
    const onRead = vi.fn();
    const { unmount } = renderWithProviders(
      <ReactionButtons post={post("x", { myReaction: "like" })} onReact={onReact} onRead={onRead} />,
    );
    expect(screen.getByRole("button", { name: /いいね 2/ })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: /よくないね 1/ })).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(screen.getByRole("button", { name: /よくないね 1/ }));
    expect(onReact).toHaveBeenCalledWith("dislike");
    await userEvent.click(screen.getByRole("button", { name: /既読にする 3/ }));
    expect(onRead).toHaveBeenCalledTimes(1);
    unmount();
    renderWithProviders(
      <ReactionButtons post={post("x", { isRead: true, readerCount: 4 })} onReact={onReact} onRead={onRead} />,
    );
    const read = await screen.findByRole("button", { name: /既読 4/ });
    expect(read).toHaveAttribute("aria-pressed", "true");
    expect(read).toBeDisabled();
  });
});

describe("NewPostDialog", { timeout: 15_000 }, () => {
  it("requires a trimmed title and content, inserts emoji at the caret and sends trimmed text", async () => {
    const onSubmit = vi.fn(async () => true);
    const onClose = vi.fn();
    renderWithProviders(<NewPostDialog opened onClose={onClose} onSubmit={onSubmit} contentMax={2000} />);
    const dialog = await screen.findByRole("dialog", { name: "新規投稿" });
    await userEvent.type(within(dialog).getByLabelText(/タイトル/), "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(await within(dialog).findByText("タイトルと内容を入力してください")).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.type(within(dialog).getByLabelText(/タイトル/), "週末 ");
    const content = within(dialog).getByLabelText(/内容/) as HTMLTextAreaElement;
    await userEvent.type(content, "ランチ行きましょう");
    content.setSelectionRange(3, 3);
    await userEvent.click(within(dialog).getByRole("button", { name: "絵文字" }));
    const emojis = within(dialog).getAllByRole("button", { name: /^絵文字 .* を挿入$/ });
    expect(emojis).toHaveLength(30);
    await userEvent.click(emojis[0] as HTMLElement);
    expect(content.value).toBe("ランチ😀行きましょう");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(onSubmit).toHaveBeenCalledWith({ title: "週末", content: "ランチ😀行きましょう" });
    expect(onClose).toHaveBeenCalled();
  });

  it("keeps the title to 100 characters and stays open when posting fails", async () => {
    const onSubmit = vi.fn(async () => false);
    const onClose = vi.fn();
    renderWithProviders(
      <NewPostDialog opened onClose={onClose} onSubmit={onSubmit} contentMax={2000} withEmojis={false} />,
    );
    const dialog = await screen.findByRole("dialog", { name: "新規投稿" });
    expect(within(dialog).queryByRole("button", { name: "絵文字" })).toBeNull();
    const title = within(dialog).getByLabelText(/タイトル/);
    expect(title).toHaveAttribute("maxLength", "100");
    await userEvent.type(title, "件名");
    await userEvent.type(within(dialog).getByLabelText(/内容/), "本文");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(within(dialog).getByLabelText(/タイトル/)).toHaveValue("件名");
  });
});
