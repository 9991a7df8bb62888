import { MSG } from "@enmusubi/shared";
import type { RouterOutputs } from "../../lib/api-types";
import { displayName } from "../../lib/display-name";

/** A post as members read it (board.list, board.myPosts). */
export type MemberBoardPost = RouterOutputs["board"]["list"]["posts"][number];
/** A post of 自分の投稿 (board.myPosts): published, or held for review by screening (`status: "held"`). */
export type OwnBoardPost = RouterOutputs["board"]["myPosts"]["posts"][number];
/** A post in board management (adminBoard.list): the author's login ID and the writing administrator added. */
export type AdminBoardPost = RouterOutputs["adminBoard"]["list"]["posts"][number];

/** What the board screens read of a post: either answer. */
export type BoardPostView = MemberBoardPost | AdminBoardPost;

/** A post's author (the public profile; administrators also get the login ID). */
export type BoardAuthor = NonNullable<BoardPostView["author"]>;

/** The page a board list answers with (the same for members and administrators). */
export type BoardPagination = RouterOutputs["board"]["list"]["pagination"];

/** 「43件」, or 「1,000件以上」 past the server's exact count. */
export function totalLabel(pagination: BoardPagination): string {
  return `${pagination.totalPosts.toLocaleString("ja-JP")}件${pagination.totalIsLowerBound ? "以上" : ""}`;
}

export const OPERATOR_NAME = MSG.boardOperatorName;
export { UNSET as UNSET_NAME } from "../../lib/display-name";

/** The name shown for a post's author: the operator, the member's name, or 未設定. */
export function authorName(post: Pick<BoardPostView, "author" | "byOperator">): string {
  if (post.byOperator) return OPERATOR_NAME;
  if (!post.author) return "退会した会員";
  return displayName(post.author);
}

/** 「28歳・女性」 under the author's name. */
export function authorLine(author: BoardAuthor | null): string {
  if (!author) return "";
  return [author.age !== null ? `${author.age}歳` : null, author.gender === "male" ? "男性" : "女性"]
    .filter(Boolean)
    .join("・");
}
