import { z } from "zod";
import { BOARD_PAGE_SIZE, BOARD_REACTIONS, POST_TITLE_MAX } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { blankToUndefined, text } from "./text";
import { calendarDay, endNotBeforeStart, pageNumber, pageSize, pageWithinOffset } from "./values";

/** The message board 掲示板 (spec §3 Board post, §5 post rules, §7 /api/board*, §9). */

export const BOARD_CONTENT_MAX = 2000;
export const BOARD_KEYWORD_MAX = 50;
/** Deepest page a list accepts (10 per page: 10,000 posts); a page costs about the posts before it. */
export const BOARD_PAGE_MAX = 1000;

/** Trimmed, 1–100 characters (spec §5, §9); plain text, shown as text. */
export const boardTitle = text({
  required: MSG.postTitleContentRequired,
  max: POST_TITLE_MAX,
  tooLong: MSG.postTitleTooLong,
});
/** Trimmed, 1–2,000 characters; plain text, shown as text. */
export const boardContent = text({
  required: MSG.postTitleContentRequired,
  max: BOARD_CONTENT_MAX,
  tooLong: MSG.postContentTooLong,
});

export const boardPostInput = z.object({ title: boardTitle, content: boardContent });
export type BoardPostInput = z.output<typeof boardPostInput>;

export const boardIdInput = z.object({ id: uuid(MSG.notFound) });

export const boardReactInput = z.object({
  id: uuid(MSG.notFound),
  kind: z.enum(BOARD_REACTIONS, { error: MSG.badRequest }),
});

const page = pageNumber({ max: BOARD_PAGE_MAX, message: MSG.boardSearchBadRequest }).default(1);

/** Posts a page of the board list may hold (GET /api/board?limit=…; 10 unless asked). */
export const BOARD_LIMIT_MAX = 50;
/** The deepest post a list reaches, whatever the page size (the walk costs about the posts before the page). */
export const BOARD_OFFSET_MAX = BOARD_PAGE_MAX * BOARD_PAGE_SIZE;

/** A calendar day, YYYY-MM-DD (taken as a day in Japan time): the one schema (values.ts). */
const day = calendarDay(MSG.boardDateInvalid);

export const boardListInput = z
  .object({
    page,
    /** Posts per page, 1–50 (10 unless asked). */
    limit: pageSize({ max: BOARD_LIMIT_MAX, message: MSG.boardSearchBadRequest }).default(BOARD_PAGE_SIZE),
    /** A substring of the title or the content (NFKC-normalised, case-insensitive); any length from 1. */
    keyword: z.preprocess(
      blankToUndefined,
      text({ max: BOARD_KEYWORD_MAX, tooLong: MSG.boardKeywordTooLong }).optional(),
    ),
    /** The poster: a member's public id (uuid, exact), otherwise part of the poster's name. */
    posterUserID: z.preprocess(blankToUndefined, text({ max: 50, tooLong: MSG.boardPosterTooLong }).optional()),
    startDate: z.preprocess(blankToUndefined, day.optional()),
    endDate: z.preprocess(blankToUndefined, day.optional()),
    /**
     * Only posts of members of the other gender (operator posts stay): the default, as the profile
     * search's (decision 0040); false lists every member's, one's own too.
     */
    excludeSameSex: z.boolean({ error: MSG.boardSearchBadRequest }).default(true),
  })
  .refine(...endNotBeforeStart("startDate", "endDate", MSG.boardDateRangeInvalid))
  .refine(...pageWithinOffset(BOARD_PAGE_SIZE, { maxOffset: BOARD_OFFSET_MAX }));
export type BoardListInput = z.input<typeof boardListInput>;

export const boardPageInput = z.object({ page });

export const adminBoardListInput = z.object({
  page,
  /** An author's login ID (exact, case-insensitive) or part of it; blank: everyone. */
  userID: z.preprocess(blankToUndefined, text({ max: 50, tooLong: MSG.boardPosterTooLong }).optional()),
});
