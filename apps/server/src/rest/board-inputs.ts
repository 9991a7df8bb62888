import {
  adminBoardListInput,
  BOARD_LIMIT_MAX,
  BOARD_OFFSET_MAX,
  BOARD_PAGE_SIZE,
  boardContent,
  boardListInput,
  boardPageInput,
  boardTitle,
  instantOf,
  isInstantText,
  japanDayOf,
  MSG,
  uuid,
} from "@enmusubi/shared";
import { z } from "zod";
import { queryBoolean, queryNumber } from "./coerce";

/*
 * The query and body schemas of the legacy board rows (routes in board.ts). The paging is the
 * procedures' own: page and limit are the fields of `boardListInput`, `boardPageInput` and
 * `adminBoardListInput` (packages/shared), defaults and bounds included, so the OpenAPI document
 * states what `board.list`, `board.myPosts` and `adminBoard.list` apply. Digit strings from the
 * query (`?page=2`) become numbers in coerce.ts.
 */

/** A legacy date may come as an ISO instant; the day is the Japanese day it falls on. */
const dayOf = (v: unknown) => (typeof v === "string" && isInstantText(v.trim()) ? japanDayOf(instantOf(v.trim())) : v);

const page = queryNumber(boardPageInput.shape.page).meta({ description: "1-based page (10 posts a page)" });
const optionalText = (description: string) =>
  z.string({ error: MSG.boardSearchBadRequest }).optional().meta({ description });

export const listQuery = z
  .object({
    page,
    limit: queryNumber(boardListInput.shape.limit).meta({
      description: `Posts per page, 1–${BOARD_LIMIT_MAX} (default ${BOARD_PAGE_SIZE}, spec §9); page × limit reaches at most the ${BOARD_OFFSET_MAX.toLocaleString("en")}th post`,
    }),
    search: optionalText(
      "Part of the title or the content, 1–50 characters: any substring, Japanese too (「食事」 finds 「東京で食事しませんか」); NFKC, case-insensitive",
    ),
    dateFrom: z.preprocess(
      dayOf,
      optionalText("From this day (YYYY-MM-DD, Japan time; an ISO instant stands for its Japanese day)"),
    ),
    dateTo: z.preprocess(
      dayOf,
      optionalText("Up to and including this day (YYYY-MM-DD, Japan time; an ISO instant stands for its Japanese day)"),
    ),
    userId: optionalText("A poster's _id, or part of a poster's name (at most 50 characters)"),
    excludeSameSex: queryBoolean(boardListInput.shape.excludeSameSex).meta({
      description:
        "true (the default, as GET /api/users/search's): only posts of members of the other gender and the operator's; false: every member's, the caller's own too (decision 0040)",
    }),
  })
  .transform((q, ctx) => {
    const parsed = boardListInput.safeParse({
      page: q.page,
      limit: q.limit,
      keyword: q.search,
      posterUserID: q.userId,
      startDate: q.dateFrom,
      endDate: q.dateTo,
      excludeSameSex: q.excludeSameSex,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });

/** GET /api/board/my-posts: the page alone, as `board.myPosts` takes it. */
export const pageQuery = z.object({ page });

/** GET /api/board/{id}: one member's posts (the member's _id), paged as the list. */
export const memberPostsQuery = z.object({
  id: uuid(MSG.notFound).meta({ description: "The member's _id (public profile id)" }),
  page,
});

export const postId = z.object({ id: uuid(MSG.notFound).meta({ description: "The post's _id" }) });
export const postBody = z.object({
  title: boardTitle.meta({ description: "Trimmed, 1–100 characters" }),
  content: boardContent.meta({ description: "Trimmed, 1–2,000 characters; plain text" }),
});
export const adminListQuery = z.object({
  page: queryNumber(adminBoardListInput.shape.page).meta({ description: "1-based page (10 posts a page)" }),
  userID: adminBoardListInput.shape.userID.meta({ description: "An author's login ID, or part of it" }),
});
