import { boardPosts, users } from "@enmusubi/db";
import { and, isNull } from "drizzle-orm";
import type { PublicProfile } from "../members/public-profile";
import { notBlockedWith } from "../safety/blocks";

/**
 * The message board 掲示板 (spec §3 Board post, §4 view gating / read / like-dislike toggles,
 * §5 post rules, §6, §9). Members see authors in the public profile shape only; administrators'
 * posts are signed as the operator. Deleted posts, posts of deleted or suspended members and posts
 * of members blocked either way never reach a member. Bodies are plain text; clients show them as text.
 *
 * This file: the board's names and shapes. access.ts: the entry window (the paid gate);
 * listing.ts: the lists and their walk; views.ts: posts shaped for members and administrators;
 * posts.ts: writing and deleting; reactions.ts: like / dislike, reads, the back-office tiles.
 */

export const BOARD_VIEW_ACTION = "message_board_view";
export const BOARD_POST_ACTION = "message_board_post";
/**
 * Totals are counted exactly up to this many posts (100 pages), or to the page asked for when
 * deeper; beyond it `totalPosts` is a lower bound (`totalIsLowerBound`). A count of every match
 * of a common keyword among 1,000,000 posts would make each page cost the whole board.
 */
export const BOARD_COUNT_CAP = 1000;
/** People listed per post in the legacy likes / dislikes / readBy arrays: the latest this many. */
export const BOARD_PEOPLE_MAX = 100;

export type Reaction = "like" | "dislike";

export interface BoardPost {
  id: string;
  title: string;
  content: string;
  createdAt: Date;
  /** The member who wrote it (public shape); null for the operator's posts. */
  author: PublicProfile | null;
  /** Written by an administrator: shown as 運営事務局. */
  byOperator: boolean;
  readerCount: number;
  likeCount: number;
  dislikeCount: number;
  myReaction: Reaction | null;
  isRead: boolean;
  isMine: boolean;
}

export interface AdminBoardPost extends Omit<BoardPost, "author"> {
  /** Administrators also see the author's login ID (members never do). */
  author: (PublicProfile & { userID: string }) | null;
  /** The administrator who wrote an operator post. */
  operator: { id: string; name: string | null } | null;
}

export interface BoardPagination {
  currentPage: number;
  /** Posts per page. */
  limit: number;
  totalPages: number;
  totalPosts: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
  /** true when there are more than `totalPosts` matches (counted up to BOARD_COUNT_CAP). */
  totalIsLowerBound: boolean;
}

export interface BoardPage<P = BoardPost> {
  posts: P[];
  pagination: BoardPagination;
}

export const live = and(isNull(boardPosts.deletedAt), isNull(users.deletedAt));

/**
 * What a member may see: live posts of live authors who are not suspended, with no block either
 * way (operator posts too). A suspended member's posts leave the board while the suspension lasts
 * (like a deleted member's, for good), so no member reads, likes or answers them; administrators
 * still see them in the back-office list.
 */
export const visibleTo = (viewerId: string) =>
  and(live, isNull(users.suspendedAt), notBlockedWith(viewerId, boardPosts.authorId));
