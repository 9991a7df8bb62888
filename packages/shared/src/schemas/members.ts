import { z } from "zod";
import { PREFECTURES } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";
import { pageNumber, pageSize, pageWithinOffset } from "./values";

/** Discovery (spec §2 member menu 検索, §7 GET /api/users/search, favourites). */

export const MEMBER_SEARCH_PAGE_SIZE = 20;
export const MEMBER_SEARCH_MAX_PAGE_SIZE = 100;
export const SEARCH_AGE_MIN = 18;
export const SEARCH_AGE_MAX = 120;
/** The profile search's orders (decision 0029): most recently active first, or newest registrations. */
export const MEMBER_SEARCH_ORDERS = ["active", "newest"] as const;
export type MemberSearchOrder = (typeof MEMBER_SEARCH_ORDERS)[number];

const age = z
  .number({ error: MSG.ageRangeInvalid })
  .int(MSG.ageRangeInvalid)
  .min(SEARCH_AGE_MIN, MSG.ageRangeInvalid)
  .max(SEARCH_AGE_MAX, MSG.ageRangeInvalid);

export const memberSearchInput = z
  .object({
    occupationId: uuid(MSG.badRequest).optional(),
    annualIncomeId: uuid(MSG.badRequest).optional(),
    /** Only the other gender (spec §7: default true). */
    excludeSameSex: z.boolean({ error: MSG.badRequest }).default(true),
    ageMin: age.optional(),
    ageMax: age.optional(),
    prefecture: z.enum(PREFECTURES, { error: MSG.prefectureInvalid }).optional(),
    hasPhoto: z.boolean({ error: MSG.badRequest }).optional(),
    /**
     * Words (split at spaces) each found in the name or the self-introduction, kana and width
     * folded (decision 0029); blank means no keyword.
     */
    keyword: text({ max: 50, tooLong: MSG.keywordTooLong }).optional(),
    /** "active" (default): most recently active first; "newest": newest registrations first. */
    order: z.enum(MEMBER_SEARCH_ORDERS, { error: MSG.searchOrderInvalid }).default("active"),
    page: pageNumber().default(1),
    limit: pageSize({ max: MEMBER_SEARCH_MAX_PAGE_SIZE }).default(MEMBER_SEARCH_PAGE_SIZE),
  })
  .refine(...pageWithinOffset(MEMBER_SEARCH_PAGE_SIZE))
  .refine((v) => v.ageMin === undefined || v.ageMax === undefined || v.ageMin <= v.ageMax, {
    message: MSG.ageRangeInvalid,
    path: ["ageMax"],
  });

/** Another member, by id (favourite add/remove, profile view). */
export const memberIdInput = z.object({ id: uuid(MSG.notFound) });

export type MemberSearchInput = z.input<typeof memberSearchInput>;
