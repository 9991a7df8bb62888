import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { POINTS_DEDUCTED_EVENT } from "../../lib/points";
import { type BoardPost, boardPage, me, type OwnPost, pointCost, publicProfile } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { BoardSearch } from "./BoardSearch";
import { MyPosts } from "./MyPosts";

const httpError = (httpStatus: number, message: string) =>
  new TRPCClientError(message, {
    result: { error: { code: -32000, message, data: { httpStatus } } },
  } as never);

const post = (id: string, title: string, extra: Partial<BoardPost> = {}): BoardPost => ({
  id,
  title,
  content: `${title}の本文です`,
  createdAt: new Date("2026-11-20T10:00:00Z"),
  author: publicProfile({ id: "a1", name: "花子", gender: "female", age: 28 }),
  byOperator: false,
  readerCount: 0,
  likeCount: 0,
  dislikeCount: 0,
  myReaction: null,
  isRead: false,
  isMine: false,
  ...extra,
});
/** Pastes the text into the field (typing key by key is slow in happy-dom). */
async function typeIn(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

const ID1 = "11111111-1111-4111-8111-111111111111";
const ID2 = "22222222-2222-4222-8222-222222222222";

const page = <P,>(posts: P[], currentPage = 1, totalPages = 1) => boardPage(posts, currentPage, totalPages);

/** The member's own post as 自分の投稿 lists it (published unless told). */
const own = (id: string, title: string, extra: Partial<OwnPost> = {}): OwnPost => ({
  ...post(id, title, { isMine: true }),
  status: "published",
  ...extra,
});

const common: Handlers = {
  "profile.me": () => me(),
  "reference.pointCosts.list": () => [],
};

function withNotifications(ui: ReactElement, handlers: Handlers) {
  return renderWithProviders(
    <>
      <Notifications />
      {ui}
    </>,
    { ...common, ...handlers },
  );
}

describe("MyPosts", { timeout: 15_000 }, () => {
  it("lists own posts with reader, like and dislike counts, 10 a page with 前へ / 次へ", async () => {
    const { calls } = withNotifications(<MyPosts />, {
      "board.myPosts": (input) => {
        const n = (input as { page?: number }).page ?? 1;
        return page([own(ID1, `ページ${n}の投稿`, { readerCount: 5, likeCount: 3, dislikeCount: 1 })], n, 2);
      },
    });
    const card = await screen.findByRole("article", { name: /ページ1の投稿/ });
    expect(within(card).getByTestId("reader-count")).toHaveTextContent("5");
    expect(within(card).getByTestId("like-count")).toHaveTextContent("3");
    expect(within(card).getByTestId("dislike-count")).toHaveTextContent("1");
    expect(screen.getByRole("button", { name: "前へ" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "次へ" }));
    await screen.findByRole("article", { name: /ページ2の投稿/ });
    expect(calls.filter((c) => c.path === "board.myPosts").map((c) => c.input)).toEqual([{ page: 1 }, { page: 2 }]);
  });

  it("deletes only after the irreversible confirmation, with the spec's messages", async () => {
    let fail = false;
    const { calls } = withNotifications(<MyPosts />, {
      "board.myPosts": () => page([own(ID1, "消す投稿")]),
      "board.delete": () => {
        if (fail) throw httpError(404, "投稿が見つかりません");
        return { ok: true };
      },
    });
    const deleteButton = await screen.findByRole("button", { name: "投稿「消す投稿」を削除" });
    await userEvent.click(deleteButton);
    const confirm = await screen.findByRole("dialog", { name: "投稿の削除" });
    expect(within(confirm).getByText("投稿「消す投稿」を削除しますか？")).toBeInTheDocument();
    expect(within(confirm).getByText("この操作は取り消せません。")).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole("button", { name: "キャンセル" }));
    expect(calls.some((c) => c.path === "board.delete")).toBe(false);

    await userEvent.click(deleteButton);
    await userEvent.click(await screen.findByRole("button", { name: "削除する" }));
    expect(await screen.findByText("投稿が削除されました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "board.delete").map((c) => c.input)).toEqual([{ id: ID1 }]);

    fail = true;
    await userEvent.click(await screen.findByRole("button", { name: "投稿「消す投稿」を削除" }));
    await userEvent.click(await screen.findByRole("button", { name: "削除する" }));
    expect(await screen.findByText("投稿が見つかりません")).toBeInTheDocument();
  });

  it("posts without a cost question when posting is free, and says 投稿が完了しました！", async () => {
    const { calls } = withNotifications(<MyPosts />, {
      "reference.pointCosts.list": () => [pointCost("message_board_post", 0)],
      "board.myPosts": () => page<OwnPost>([]),
      "board.create": (input) => own(ID2, input.title),
    });
    expect(await screen.findByText(/まだ投稿していません/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "新規投稿" }));
    const dialog = await screen.findByRole("dialog", { name: "新規投稿" });
    await typeIn(within(dialog).getByLabelText(/タイトル/), "食事に行きませんか");
    await typeIn(within(dialog).getByLabelText(/内容/), "渋谷あたりで");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(await screen.findByText("投稿が完了しました！")).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "ポイントの消費" })).toBeNull();
    expect(calls.find((c) => c.path === "board.create")?.input).toEqual({
      title: "食事に行きませんか",
      content: "渋谷あたりで",
    });
  });

  it("a post held for review: 確認中 instead of posted, then listed first with the badge and no reactions or delete", async () => {
    let posted = false;
    const heldPost = own(ID2, "ホ別で会える人", { status: "held" });
    withNotifications(<MyPosts />, {
      "reference.pointCosts.list": () => [pointCost("message_board_post", 0)],
      "board.myPosts": () => page(posted ? [heldPost, own(ID1, "公開済みの投稿")] : []),
      "board.create": () => {
        posted = true;
        return heldPost;
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "新規投稿" }));
    const dialog = await screen.findByRole("dialog", { name: "新規投稿" });
    await typeIn(within(dialog).getByLabelText(/タイトル/), "ホ別で会える人");
    await typeIn(within(dialog).getByLabelText(/内容/), "本文");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(await screen.findByText(MSG.postHeldForReview)).toBeInTheDocument();
    expect(screen.queryByText("投稿が完了しました！")).toBeNull();
    const held = await screen.findByRole("article", { name: /ホ別で会える人/ });
    expect(within(held).getByTestId("held-post")).toHaveTextContent("確認中");
    expect(within(held).queryByRole("button")).toBeNull();
    const published = screen.getByRole("article", { name: /公開済みの投稿/ });
    expect(within(published).queryByTestId("held-post")).toBeNull();
    expect(within(published).getByRole("button", { name: "投稿「公開済みの投稿」を削除" })).toBeInTheDocument();
  });

  it("a post refused by screening shows the server's message and keeps the dialog with the text", async () => {
    withNotifications(<MyPosts />, {
      "reference.pointCosts.list": () => [pointCost("message_board_post", 0)],
      "board.myPosts": () => page<OwnPost>([]),
      "board.create": () => {
        throw httpError(400, MSG.screeningRefusedSolicitation);
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "新規投稿" }));
    const dialog = await screen.findByRole("dialog", { name: "新規投稿" });
    await typeIn(within(dialog).getByLabelText(/タイトル/), "件名");
    await typeIn(within(dialog).getByLabelText(/内容/), "援交しませんか");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    expect(await screen.findByText(MSG.screeningRefusedSolicitation)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/内容/)).toHaveValue("援交しませんか");
  });

  it("asks for the posting cost first; declining sends nothing, a failure keeps the dialog", async () => {
    let fail = false;
    const { calls } = withNotifications(<MyPosts />, {
      "reference.pointCosts.list": () => [pointCost("message_board_post", 15)],
      "board.myPosts": () => page<OwnPost>([]),
      "board.create": () => {
        if (fail) throw httpError(500, "Internal server error");
        return own(ID2, "x");
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "新規投稿" }));
    const dialog = await screen.findByRole("dialog", { name: "新規投稿" });
    await typeIn(within(dialog).getByLabelText(/タイトル/), "件名");
    await typeIn(within(dialog).getByLabelText(/内容/), "本文");
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    const confirm = await screen.findByRole("dialog", { name: "ポイントの消費" });
    expect(within(confirm).getByText("掲示板への投稿には15ptが必要です。続けますか？")).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole("button", { name: "キャンセル" }));
    expect(calls.some((c) => c.path === "board.create")).toBe(false);

    fail = true;
    await userEvent.click(within(dialog).getByRole("button", { name: "投稿する" }));
    await userEvent.click(await screen.findByRole("button", { name: "続ける" }));
    expect(await screen.findByText("投稿の作成に失敗しました")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "新規投稿" })).toBeInTheDocument();
  });

  it("shows who read, liked and disliked a post when asked", async () => {
    const person = (id: string, name: string | null, age: number | null) =>
      publicProfile({ id, name, gender: "male", age });
    const { calls } = withNotifications(<MyPosts />, {
      "board.myPosts": () => page([own(ID1, "反応を見る投稿", { readerCount: 2, likeCount: 1 })]),
      "board.people": () => ({
        [ID1]: {
          readBy: [person("r1", "一郎", 30), person("r2", null, null)],
          likes: [person("r1", "一郎", 30)],
          dislikes: [],
        },
      }),
    });
    await screen.findByRole("article", { name: /反応を見る投稿/ });
    expect(calls.some((c) => c.path === "board.people")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "「反応を見る投稿」に反応した人を見る" }));
    const dialog = await screen.findByRole("dialog", { name: "「反応を見る投稿」に反応した人" });
    // Inactive tab panels stay mounted but hidden: read the shown one (既読).
    const shown = await within(dialog).findByRole("tabpanel");
    expect(await within(shown).findByText("一郎")).toBeInTheDocument();
    expect(within(shown).getByText("未設定")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "board.people")?.input).toEqual({ ids: [ID1] });
    await userEvent.click(within(dialog).getByRole("tab", { name: /よくないね/ }));
    expect(await within(dialog).findByText("まだよくないねはありません。")).toBeInTheDocument();
  });

  it("shows the error with a retry instead of sample posts", async () => {
    let fail = true;
    withNotifications(<MyPosts />, {
      "board.myPosts": () => {
        if (fail) throw httpError(500, "Internal server error");
        return page<OwnPost>([]);
      },
    });
    expect(await screen.findByText("投稿の取得に失敗しました")).toBeInTheDocument();
    expect(screen.queryByRole("article")).toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText(/まだ投稿していません/)).toBeInTheDocument();
  });
});

describe("BoardSearch entry", { timeout: 15_000 }, () => {
  afterEach(() => vi.useRealTimers());

  it("free: no confirmation, the board at once", async () => {
    const { calls } = withNotifications(<BoardSearch />, {
      "board.access": () => ({ open: true, openUntil: null, cost: 0 }),
      "board.list": () => page([post(ID1, "東京で食事しませんか")]),
    });
    await screen.findByRole("article", { name: /東京で食事しませんか/ });
    expect(screen.queryByText(/掲示板の閲覧には/)).toBeNull();
    expect(calls.some((c) => c.path === "board.enter")).toBe(false);
  });

  it("paid: the cost first; 続ける charges once, updates the balance and opens the board with its time left", async () => {
    const openUntil = new Date(Date.now() + 30 * 60_000);
    const deducted: number[] = [];
    const listen = (e: Event) => deducted.push((e as CustomEvent<{ remainingPoints: number }>).detail.remainingPoints);
    window.addEventListener(POINTS_DEDUCTED_EVENT, listen);
    const { calls } = withNotifications(<BoardSearch />, {
      "board.access": () => ({ open: false, openUntil: null, cost: 10 }),
      "board.enter": () => ({ openUntil, charged: 10, remainingPoints: 90 }),
      "board.list": () => page([post(ID1, "東京で食事しませんか")]),
    });
    expect(await screen.findByText("掲示板の閲覧には10ptが必要です。続けますか？")).toBeInTheDocument();
    expect(await screen.findByTestId("board-entry-balance")).toHaveTextContent("100pt");
    expect(calls.some((c) => c.path === "board.list")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    await screen.findByRole("article", { name: /東京で食事しませんか/ });
    expect(calls.filter((c) => c.path === "board.enter")).toHaveLength(1);
    expect(deducted).toEqual([90]);
    expect(screen.getByTestId("board-window")).toHaveTextContent(/閲覧可能 残り(29|30)分/);
    window.removeEventListener(POINTS_DEDUCTED_EVENT, listen);
  });

  it("an open window skips the confirmation", async () => {
    const { calls } = withNotifications(<BoardSearch />, {
      "board.access": () => ({ open: true, openUntil: new Date(Date.now() + 10 * 60_000), cost: 10 }),
      "board.list": () => page([post(ID1, "入室済み")]),
    });
    await screen.findByRole("article", { name: /入室済み/ });
    expect(screen.getByTestId("board-window")).toHaveTextContent(/残り(9|10)分/);
    expect(calls.some((c) => c.path === "board.enter")).toBe(false);
  });

  it("short of points: 「あなたのポイント数が足りません。」 with the way to buy, and no 続ける", async () => {
    withNotifications(<BoardSearch />, {
      "profile.me": () => me({ points: 5 }),
      "board.access": () => ({ open: false, openUntil: null, cost: 10 }),
    });
    const alert = await screen.findByTestId("board-entry-short");
    expect(alert).toHaveTextContent("あなたのポイント数が足りません。");
    expect(within(alert).getByRole("link", { name: "ポイントを購入する" })).toHaveAttribute(
      "href",
      "/user/point-purchase",
    );
    expect(screen.queryByRole("button", { name: "続ける" })).toBeNull();
  });

  it("the server's 402 on entry says the same, and nothing opens", async () => {
    const { calls } = withNotifications(<BoardSearch />, {
      "board.access": () => ({ open: false, openUntil: null, cost: 10 }),
      "board.enter": () => {
        throw httpError(402, "ポイントが不足しています。必要ポイント: 10pt 所持ポイント: 5pt");
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "続ける" }));
    expect(await screen.findByText("あなたのポイント数が足りません。")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "board.list")).toBe(false);
  });

  it("a 402 from the list (window over) brings the confirmation back", async () => {
    let open = true;
    withNotifications(<BoardSearch />, {
      "board.access": () => ({ open, openUntil: open ? new Date(Date.now() + 60_000) : null, cost: 10 }),
      "board.list": () => {
        open = false;
        throw httpError(402, "掲示板を閲覧するには入室が必要です（ポイントを消費します）。");
      },
    });
    expect(await screen.findByText("掲示板の閲覧には10ptが必要です。続けますか？")).toBeInTheDocument();
  });

  it("when the window's time is up the confirmation comes back by itself", async () => {
    let accessCalls = 0;
    withNotifications(<BoardSearch />, {
      "board.access": () => {
        accessCalls += 1;
        return accessCalls === 1
          ? { open: true, openUntil: new Date(Date.now() + 800), cost: 10 }
          : { open: false, openUntil: null, cost: 10 };
      },
      "board.list": () => page([post(ID1, "まもなく終了")]),
    });
    await screen.findByRole("article", { name: /まもなく終了/ });
    expect(screen.getByTestId("board-window")).toHaveTextContent("残り1分未満");
    expect(
      await screen.findByText("掲示板の閲覧には10ptが必要です。続けますか？", undefined, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("article")).toBeNull();
  });

  it("an unverified member sees the server's reason", async () => {
    withNotifications(<BoardSearch />, {
      "board.access": () => {
        throw httpError(403, "この機能を使うには年齢確認が必要です。/user/verification から確認してください。");
      },
    });
    expect(await screen.findByText(/年齢確認が必要です/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "再試行" })).toBeInTheDocument();
  });
});

describe("BoardSearch filters", { timeout: 15_000 }, () => {
  const open = { "board.access": () => ({ open: true, openUntil: null, cost: 0 }) };

  it("applies keyword, poster and dates on 検索, summarises them as chips, and clears", async () => {
    const { calls } = withNotifications(<BoardSearch />, {
      ...open,
      "board.list": () => page([post(ID1, "東京で食事しませんか")]),
    });
    await screen.findByRole("article");
    expect(screen.queryByTestId("filter-chips")).toBeNull();
    await typeIn(screen.getByLabelText("キーワード"), " 食事 ");
    await typeIn(screen.getByLabelText("投稿者"), "花子");
    await typeIn(screen.getByLabelText("開始日"), "2026年11月1日");
    await userEvent.click(screen.getByRole("switch", { name: "同性を除外する" }));
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    const chips = await screen.findByTestId("filter-chips");
    expect(
      within(chips)
        .getAllByTestId("filter-chip")
        .map((c) => c.textContent),
    ).toEqual(["キーワード: 食事", "投稿者: 花子", "開始日: 2026年11月1日", "同性も表示"]);
    const last = () => calls.filter((c) => c.path === "board.list").at(-1)?.input;
    expect(last()).toEqual({
      page: 1,
      keyword: "食事",
      posterUserID: "花子",
      startDate: "2026-11-01",
      excludeSameSex: false,
    });

    // One chip off: that condition only.
    await userEvent.click(within(chips).getByRole("button", { name: "投稿者: 花子 を解除" }));
    expect(screen.getByLabelText("投稿者")).toHaveValue("");
    expect(last()).toEqual({ page: 1, keyword: "食事", startDate: "2026-11-01", excludeSameSex: false });

    await userEvent.click(screen.getByRole("button", { name: "クリア" }));
    expect(screen.queryByTestId("filter-chips")).toBeNull();
    expect(screen.getByLabelText("キーワード")).toHaveValue("");
    expect(last()).toEqual({ page: 1, excludeSameSex: true });
  });

  it("a search sent while the previous one is still fetching is not dropped (a loading 検索 button was disabled)", async () => {
    let answer: (value: ReturnType<typeof page<BoardPost>>) => void = () => {};
    const { calls } = withNotifications(<BoardSearch />, {
      ...open,
      "board.list": (input) =>
        input.keyword === "食事"
          ? new Promise<ReturnType<typeof page<BoardPost>>>((resolve) => {
              answer = resolve;
            })
          : page([post(ID1, "東京で食事しませんか")]),
    });
    await screen.findByRole("article");
    const keyword = screen.getByLabelText("キーワード");
    await typeIn(keyword, "食事");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() =>
      expect(calls.some((c) => (c.input as { keyword?: string } | undefined)?.keyword === "食事")).toBe(true),
    );
    // Still fetching 食事: the member changes their mind and sends ランチ with Enter.
    await userEvent.clear(keyword);
    await typeIn(keyword, "ランチ");
    await userEvent.keyboard("{Enter}");
    const chips = await screen.findByTestId("filter-chips");
    expect(within(chips).getByText("キーワード: ランチ")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "board.list").at(-1)?.input).toEqual({
      page: 1,
      keyword: "ランチ",
      excludeSameSex: true,
    });
    answer(page([]));
  });

  it("refuses an end date before the start date without asking the server", async () => {
    const { calls } = withNotifications(<BoardSearch />, { ...open, "board.list": () => page([]) });
    await screen.findByText("まだ投稿はありません。");
    await typeIn(screen.getByLabelText("開始日"), "2026年11月10日");
    await typeIn(screen.getByLabelText("終了日"), "2026/11/01");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    expect(await screen.findByText("開始日は終了日以前の日付を指定してください。")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "board.list")).toHaveLength(1);
  });

  it("says 400 and other failures in the spec's words, with a retry; no results has its own text", async () => {
    let answer: "bad" | "down" | "none" = "bad";
    withNotifications(<BoardSearch />, {
      ...open,
      "board.list": () => {
        if (answer === "bad") throw httpError(400, "キーワードは50文字以内で入力してください。");
        if (answer === "down") throw new Error("down");
        return page([]);
      },
    });
    expect(await screen.findByText("検索条件に問題があります。もう一度お試しください。")).toBeInTheDocument();
    answer = "down";
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("投稿の取得に失敗しました。もう一度お試しください。")).toBeInTheDocument();
    answer = "none";
    await typeIn(screen.getByLabelText("キーワード"), "該当なし");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    expect(await screen.findByText("条件に一致する投稿は見つかりませんでした。")).toBeInTheDocument();
  });

  it("pages 10 at a time with 前へ / 次へ and starts again at page 1 on a new search", async () => {
    const { calls } = withNotifications(<BoardSearch />, {
      ...open,
      "board.list": (input) => {
        const n = (input as { page: number }).page;
        return page([post(ID1, `${n}ページ目`)], n, 3);
      },
    });
    await screen.findByRole("article", { name: /1ページ目/ });
    expect(screen.getByTestId("board-page")).toHaveTextContent("1 / 3ページ");
    await userEvent.click(screen.getByRole("button", { name: "次へ" }));
    await screen.findByRole("article", { name: /2ページ目/ });
    await userEvent.click(screen.getByRole("button", { name: "前へ" }));
    await screen.findByRole("article", { name: /1ページ目/ });
    await userEvent.click(screen.getByRole("button", { name: "次へ" }));
    await screen.findByRole("article", { name: /2ページ目/ });
    await typeIn(screen.getByLabelText("キーワード"), "東京");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await screen.findByRole("article", { name: /1ページ目/ });
    const pages = calls.filter((c) => c.path === "board.list").map((c) => (c.input as { page: number }).page);
    expect(pages).toEqual([1, 2, 1, 2, 1]);
  });

  it("likes (pressed, count from the server), reads once, and says when a like fails", async () => {
    let likeFails = false;
    const { calls } = withNotifications(<BoardSearch />, {
      ...open,
      "board.list": () => page([post(ID1, "東京で食事しませんか", { likeCount: 1, readerCount: 2 })]),
      "board.react": () => {
        if (likeFails) throw httpError(500, "Internal server error");
        return { likes: 2, dislikes: 0, myReaction: "like" as const };
      },
      "board.read": () => ({ alreadyRead: false, readerCount: 3 }),
    });
    const card = await screen.findByRole("article", { name: /東京で食事しませんか/ });
    await userEvent.click(within(card).getByRole("button", { name: /いいね 1/ }));
    const liked = await within(card).findByRole("button", { name: /いいね 2/ });
    expect(liked).toHaveAttribute("aria-pressed", "true");
    expect(calls.find((c) => c.path === "board.react")?.input).toEqual({ id: ID1, kind: "like" });

    await userEvent.click(within(card).getByRole("button", { name: /既読にする 2/ }));
    const read = await within(card).findByRole("button", { name: /既読 3/ });
    expect(read).toHaveAttribute("aria-pressed", "true");
    expect(read).toBeDisabled();

    likeFails = true;
    await userEvent.click(within(card).getByRole("button", { name: /よくないね 0/ }));
    expect(await screen.findByText("よくないねの処理に失敗しました")).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: /いいね 2/ })).toHaveAttribute("aria-pressed", "true");
  });
});

describe("a board post's poster", { timeout: 15_000 }, () => {
  it("the name opens their profile as a paid view; 「メッセージを送る」 goes to the conversation; not on one's own posts", async () => {
    const { calls } = withNotifications(<BoardSearch />, {
      "board.access": () => ({ open: true, openUntil: null, cost: 0 }),
      "board.list": () =>
        page([post(ID1, "他人の投稿"), post(ID2, "自分の投稿", { isMine: true, author: me() as never })]),
      "members.viewPrice": () => ({ cost: 15, free: false, freeUntil: null, reason: null }),
      "members.viewProfile": () => ({
        profile: {
          ...publicProfile({ id: "a1", name: "花子", gender: "female", age: 28 }),
          selfIntroduction: "",
          lastActive: "24時間以内",
        },
        charged: true,
        remainingPoints: 85,
      }),
    });
    const theirs = await screen.findByRole("article", { name: /他人の投稿/ });
    const mine = screen.getByRole("article", { name: /自分の投稿/ });
    expect(within(mine).queryByRole("link", { name: /メッセージを送る/ })).toBeNull();
    expect(within(mine).queryByRole("button", { name: /プロフィールを見る/ })).toBeNull();
    expect(within(theirs).getByRole("link", { name: "花子さんにメッセージを送る" })).toHaveAttribute(
      "href",
      "/user/messages/a1",
    );
    await userEvent.click(within(theirs).getByRole("button", { name: "花子さんのプロフィールを見る" }));
    expect(await screen.findByText("プロフィールの閲覧には15ptが必要です。続けますか？")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    const detail = await screen.findByRole("dialog", { name: "花子さんのプロフィール" });
    expect(within(detail).getByRole("link", { name: "メッセージを送る" })).toHaveAttribute("href", "/user/messages/a1");
    expect(calls.filter((c) => c.path === "members.viewProfile").map((c) => c.input)).toEqual([{ id: "a1" }]);
  });
});
