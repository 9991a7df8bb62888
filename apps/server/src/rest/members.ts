import {
  LAST_ACTIVE_BUCKETS,
  MEMBER_SEARCH_PAGE_SIZE,
  MSG,
  memberIdInput,
  memberSearchInput,
  pageWithinOffset,
} from "@enmusubi/shared";
import { z } from "zod";
import { type Caller, route } from "./adapter";
import { queryBoolean, queryNumber } from "./coerce";
import { EXAMPLE_ANNUAL_INCOME, EXAMPLE_OCCUPATION } from "./examples";
import { isoOf, successMessage } from "./legacy-shapes";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";

/**
 * Discovery (spec §7 GET /api/users/search, favourites; our profile view and 足あと). Members see
 * other members only in this public shape: never email, points, role, birthday or the login ID.
 * The objects are strict, so the contract tests fail any answer that carries another field.
 */
export const legacyPublicProfile = z.strictObject({
  _id: z.string(),
  name: z.string().nullable(),
  photoLink: z.string().nullable().meta({
    description:
      "The photo's thumbnail (/uploads/thumbs/<name>.jpg, at most 320 px, public). Since decision 0028 no member-facing answer carries the full-size image: it is sold through POST /api/users/{id}/photo-view as a short-lived signed URL. An outside http(s) link an administrator set is answered as it is.",
  }),
  gender: z.enum(["male", "female"]),
  age: z.number().int().nullable().meta({ description: "Whole years, from the birthday (never shown itself)" }),
  address: z.string().nullable().meta({ description: "The prefecture" }),
  occupation: z.object({ _id: z.string(), occupaionName: z.string() }).nullable(),
  annual_income: z.object({ _id: z.string(), annualIncome: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  verified: z.boolean().meta({
    description:
      "Age verification approved (the 年齢確認済み badge): only such a member can read members' messages, and a message to anyone else is refused with 409 before any charge",
  }),
});

/** The public profile as the members procedures answer it. */
type PublicProfile = Awaited<ReturnType<Caller["members"]["favorites"]>>[number];

export function toLegacyPublicProfile(p: PublicProfile): z.input<typeof legacyPublicProfile> {
  return {
    _id: p.id,
    name: p.name,
    photoLink: p.photoLink,
    gender: p.gender,
    age: p.age,
    address: p.prefecture,
    occupation: p.occupation ? { _id: p.occupation.id, occupaionName: p.occupation.name } : null,
    annual_income: p.annualIncome ? { _id: p.annualIncome.id, annualIncome: p.annualIncome.label } : null,
    createdAt: isoOf(p.createdAt),
    verified: p.verified,
  };
}

const searchRow = legacyPublicProfile.extend({ isFavorite: z.boolean() });

/** The paid profile detail (POST /api/users/{id}/profile-view): the public profile and what only it shows. */
const legacyProfileDetail = legacyPublicProfile.extend({
  selfIntroduction: z.string().meta({ description: '自己紹介, line breaks kept ("" when none)' }),
  lastActive: z.enum(LAST_ACTIVE_BUCKETS).meta({
    description: "When the member was last active, as a bucket (never the time itself)",
  }),
});

const EXAMPLE_PUBLIC_PROFILE: z.input<typeof legacyPublicProfile> = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  name: "山田花子",
  photoLink: "/uploads/thumbs/0123456789abcdef0123456789abcdef.jpg",
  gender: "female",
  age: 30,
  address: "東京都",
  occupation: EXAMPLE_OCCUPATION,
  annual_income: EXAMPLE_ANNUAL_INCOME,
  createdAt: "2025-08-20T01:23:45.000Z",
  verified: true,
};

// ---- inputs ---------------------------------------------------------------------------------

const s = memberSearchInput.shape;

const searchQuery = z
  .object({
    occupation: s.occupationId.meta({ description: "An occupation's _id (GET /api/occupations)" }),
    annual_income: s.annualIncomeId.meta({ description: "An annual income's _id (GET /api/annual-incomes)" }),
    excludeSameSex: queryBoolean(s.excludeSameSex).meta({
      description: "true (default): only members of the other gender",
    }),
    ageMin: queryNumber(s.ageMin).meta({ description: "Youngest age, 18–120" }),
    ageMax: queryNumber(s.ageMax).meta({ description: "Oldest age, 18–120, not below ageMin" }),
    prefecture: s.prefecture.meta({ description: "One of the 47 prefectures, e.g. 東京都" }),
    hasPhoto: queryBoolean(s.hasPhoto).meta({ description: "true: only with a photo; false: only without" }),
    keyword: s.keyword.meta({
      description:
        "Words (split at spaces), each found in the name or the 自己紹介; hiragana and katakana, full and half width match each other; at most 50 characters",
    }),
    order: s.order.meta({
      description: "active (default): most recently active first; newest: newest registrations first",
    }),
    page: queryNumber(s.page),
    limit: queryNumber(s.limit).meta({ description: "Page size, 1–100 (default 20)" }),
  })
  .refine(...pageWithinOffset(MEMBER_SEARCH_PAGE_SIZE))
  .transform(({ occupation, annual_income, ...rest }) => ({
    ...rest,
    occupationId: occupation,
    annualIncomeId: annual_income,
  }));

const favoriteBody = z
  .object({ favoriteUserId: memberIdInput.shape.id.meta({ description: "The member's _id" }) })
  .transform((b) => ({ id: b.favoriteUserId }));

export const memberRoutes = [
  route({
    method: "GET",
    path: "/api/users/search",
    summary:
      "Member: profile search, most recently active (or newest registered) first, paged (page, limit ≤ 100, default 20); public profiles only",
    description:
      "Lists only members who can read messages (age verified); never the searcher, administrators, deleted or suspended members, or members blocked either way. `excludeSameSex` (default true) keeps only the other gender. Ages are computed from birthdays; members without a birthday do not match an age filter.",
    access: "member",
    input: searchQuery,
    response: z.object({
      profiles: z.array(searchRow),
      total: z.number().int().min(0),
      /** true: more than `total` match (the count stops at 1,000 or one page past the page asked). */
      totalCapped: z.boolean(),
      page: z.number().int().min(1),
      limit: z.number().int().min(1),
      totalPages: z.number().int().min(1),
    }),
    example: {
      profiles: [{ ...EXAMPLE_PUBLIC_PROFILE, isFavorite: false }],
      total: 1,
      totalCapped: false,
      page: 1,
      limit: 20,
      totalPages: 1,
    },
    errors: { 400: [MSG.ageRangeInvalid, MSG.prefectureInvalid, MSG.keywordTooLong, MSG.searchOrderInvalid] },
    handler: async (caller, input) => {
      const result = await caller.members.search(input);
      return {
        ...result,
        profiles: result.profiles.map((p) => {
          // The fresh legacy profile, completed in place (no copy per row, decision 0037).
          const legacy = toLegacyPublicProfile(p) as ReturnType<typeof toLegacyPublicProfile> & { isFavorite: boolean };
          legacy.isFavorite = p.isFavorite;
          return legacy;
        }),
      };
    },
  }),
  route({
    method: "GET",
    path: "/api/users/favorites",
    summary:
      "Member: my favourites (members neither deleted nor suspended, most recently added first), public profiles only",
    access: "member",
    response: z.array(legacyPublicProfile),
    example: [EXAMPLE_PUBLIC_PROFILE],
    handler: async (caller) => (await caller.members.favorites()).map(toLegacyPublicProfile),
  }),
  route({
    method: "POST",
    path: "/api/users/favorite",
    summary: "Member: add a favourite (adding it again changes nothing)",
    access: "member",
    input: favoriteBody,
    response: successMessage,
    example: { success: true, message: MSG.favoriteAdded },
    errors: { 400: MSG.favoriteSelf, 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.members.addFavorite(input);
      return { success: true as const, message: MSG.favoriteAdded };
    },
  }),
  route({
    method: "POST",
    path: "/api/users/unfavorite",
    summary: "Member: remove a favourite (removing one that is not there changes nothing)",
    access: "member",
    input: favoriteBody,
    response: successMessage,
    example: { success: true, message: MSG.favoriteRemoved },
    handler: async (caller, input) => {
      await caller.members.removeFavorite(input);
      return { success: true as const, message: MSG.favoriteRemoved };
    },
  }),
  route({
    method: "POST",
    path: "/api/users/:id/profile-view",
    summary:
      "Member: a profile's detail (with 自己紹介 and when last active); costs profile_view (free again within 24 hours) and leaves a footprint",
    description:
      "Charged once per viewer and profile per 24 hours, also under concurrent calls; a prepaid profile_view credit (POST /api/users/deduct-points) is used first. One's own profile is free and leaves no footprint. A deleted or suspended member, an administrator or an unknown id answers 404 and nothing is charged.",
    access: "member",
    input: memberIdInput,
    response: z.object({
      profile: legacyProfileDetail,
      charged: z.boolean(),
      remainingPoints: z.number().int().min(0),
    }),
    example: {
      profile: {
        ...EXAMPLE_PUBLIC_PROFILE,
        selfIntroduction: "はじめまして。\n週末はカフェ巡りをしています。",
        lastActive: "3日以内",
      },
      charged: true,
      remainingPoints: 95,
    },
    errors: { 402: INSUFFICIENT_POINTS_EXAMPLE, 404: MSG.notFound },
    handler: async (caller, input) => {
      const result = await caller.members.viewProfile(input);
      const { selfIntroduction, lastActive } = result.profile;
      return { ...result, profile: { ...toLegacyPublicProfile(result.profile), selfIntroduction, lastActive } };
    },
  }),
  route({
    method: "GET",
    path: "/api/users/:id/view-price",
    summary: "Member: what POST /api/users/{id}/profile-view would take from my balance now, and why it is free",
    description:
      "Free (cost 0) for one's own profile (reason own), within 24 hours of the last paid view of this profile (recentView; freeUntil: when that ends), when profile_view costs 0 (noPrice), or when a prepaid profile_view credit will pay (prepaid); otherwise cost is the current profile_view price. A quote, not a hold: the view charges what holds when it runs. Same 404 as the view (deleted, suspended, blocked either way, administrators, unknown ids). Nothing is written.",
    access: "member",
    input: memberIdInput,
    response: z.strictObject({
      cost: z.number().int().min(0).meta({ description: "Points the view would take now" }),
      free: z.boolean().meta({ description: "cost is 0: the confirmation may be skipped" }),
      freeUntil: z.iso.datetime().nullable(),
      reason: z.enum(["own", "recentView", "noPrice", "prepaid"]).nullable(),
    }),
    example: { cost: 0, free: true, freeUntil: "2025-08-22T03:04:05.000Z", reason: "recentView" },
    errors: { 400: MSG.notFound, 404: MSG.notFound },
    handler: async (caller, input) => {
      const price = await caller.members.viewPrice(input);
      return { ...price, freeUntil: price.freeUntil ? new Date(price.freeUntil).toISOString() : null };
    },
  }),
  route({
    method: "POST",
    path: "/api/users/:id/photo-view",
    summary:
      "Member: the enlarged profile photo; costs profile_photo_view (free again within 24 hours) and answers the full-size image's short-lived signed URL",
    description:
      "Members see thumbnails only (every photoLink of a member-facing answer); the full-size image is served only at the URL answered here (GET /uploads/photos/<name>.jpg?exp=…&sig=…, an HMAC of the server's secret bound to the file name, valid until expiresAt, a few minutes; without or with an expired or altered signature 403). Charged once per viewer and member per 24 hours, also under concurrent calls; a prepaid profile_photo_view credit is used first; one's own photo is free. A deleted or suspended member, a member blocked either way, an administrator or an unknown id answers 404, a member without a stored photo 400, and nothing is charged.",
    access: "member",
    input: memberIdInput,
    response: z.strictObject({
      url: z.string().meta({ description: "The full-size image's signed URL (a path on this server)" }),
      expiresAt: z.iso.datetime().meta({ description: "When the URL stops working" }),
      charged: z.boolean(),
      remainingPoints: z.number().int().min(0),
    }),
    example: {
      url: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg?exp=1755745500&sig=q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c",
      expiresAt: "2025-08-21T03:05:00.000Z",
      charged: true,
      remainingPoints: 80,
    },
    errors: { 400: [MSG.photoNone, MSG.notFound], 402: INSUFFICIENT_POINTS_EXAMPLE, 404: MSG.notFound },
    handler: async (caller, input) => {
      const result = await caller.members.viewPhoto(input);
      return { ...result, expiresAt: new Date(result.expiresAt).toISOString() };
    },
  }),
  route({
    method: "GET",
    path: "/api/users/:id/photo-price",
    summary:
      "Member: what POST /api/users/{id}/photo-view would take from my balance now, and whether there is a photo",
    description:
      "available false: the member has no stored photo to enlarge (cost 0). Free (cost 0) for one's own photo (reason own), within 24 hours of the last paid enlargement of this member's photo (recentView; freeUntil: when that ends), when profile_photo_view costs 0 (noPrice), or when a prepaid credit will pay (prepaid); otherwise cost is the current profile_photo_view price. A quote, not a hold. Same 404 as the enlargement. Nothing is written.",
    access: "member",
    input: memberIdInput,
    response: z.strictObject({
      available: z.boolean().meta({ description: "The member has a photo that can be enlarged" }),
      cost: z.number().int().min(0).meta({ description: "Points the enlargement would take now" }),
      free: z.boolean().meta({ description: "cost is 0: the button says 無料 and no confirmation is needed" }),
      freeUntil: z.iso.datetime().nullable(),
      reason: z.enum(["own", "recentView", "noPrice", "prepaid"]).nullable(),
    }),
    example: { available: true, cost: 20, free: false, freeUntil: null, reason: null },
    errors: { 400: MSG.notFound, 404: MSG.notFound },
    handler: async (caller, input) => {
      const price = await caller.members.photoPrice(input);
      return { ...price, freeUntil: price.freeUntil ? new Date(price.freeUntil).toISOString() : null };
    },
  }),
  route({
    method: "GET",
    path: "/api/users/footprints",
    summary: "Member: who viewed my profile (足あと), latest first, one entry per viewer per day; free",
    access: "member",
    response: z.array(z.object({ viewer: legacyPublicProfile, viewedAt: z.iso.datetime() })),
    example: [{ viewer: EXAMPLE_PUBLIC_PROFILE, viewedAt: "2025-08-21T03:04:05.000Z" }],
    handler: async (caller) =>
      (await caller.members.footprints()).map((f) => ({
        viewer: toLegacyPublicProfile(f.viewer),
        viewedAt: new Date(f.viewedAt).toISOString(),
      })),
  }),
];
