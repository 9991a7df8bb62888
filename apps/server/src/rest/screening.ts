import {
  MSG,
  SCREENING_ACTIONS,
  SCREENING_CATEGORIES,
  SCREENING_CATEGORY_VALUES,
  SCREENING_HOLD_KINDS,
  SCREENING_PAGE_SIZE,
  screeningRejectInput,
  screeningRuleInput,
  screeningRuleUpdateInput,
  text,
  uuid,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber } from "./coerce";

/**
 * Administrators: the screening rules (NGワード・検知ルール) and the held messages and posts
 * (投稿・メッセージ確認), as the admin screens use them through tRPC adminScreening (decision 0042).
 */

const EXAMPLE_RULE_ID = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
const EXAMPLE_HOLD_ID = "2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091";
const idParam = z.object({ id: uuid(MSG.notFound) });

const categories = SCREENING_CATEGORIES.map((c) => `${c.value} (${c.label})`).join(", ");
const actions = SCREENING_ACTIONS.map((a) => `${a.value} (${a.label})`).join(", ");

const rule = z.object({
  _id: z.string(),
  kind: z.enum(["word", "pattern"]),
  pattern: z.string(),
  category: z.enum(SCREENING_CATEGORY_VALUES),
  action: z.enum(["mask", "hold", "refuse"]),
  note: z.string(),
  enabled: z.boolean(),
  updatedAt: z.iso.datetime(),
});
type RuleOut = {
  id: string;
  kind: "word" | "pattern";
  pattern: string;
  category: (typeof SCREENING_CATEGORY_VALUES)[number];
  action: "mask" | "hold" | "refuse";
  note: string;
  enabled: boolean;
  updatedAt: Date;
};
const toRule = (r: RuleOut): z.input<typeof rule> => ({
  _id: r.id,
  kind: r.kind,
  pattern: r.pattern,
  category: r.category,
  action: r.action,
  note: r.note,
  enabled: r.enabled,
  updatedAt: new Date(r.updatedAt).toISOString(),
});
const EXAMPLE_RULE: z.input<typeof rule> = {
  _id: EXAMPLE_RULE_ID,
  kind: "word",
  pattern: "ホ別",
  category: "solicitation",
  action: "hold",
  note: "ホテル代別（金額の提示）",
  enabled: true,
  updatedAt: "2025-08-21T09:30:00.000Z",
};

const pagination = z.object({
  total: z.number().int().min(0),
  totalCapped: z.boolean(),
  totalPages: z.number().int().min(1),
  currentPage: z.number().int().min(1),
  limit: z.number().int().min(1),
});
const EXAMPLE_PAGINATION = { total: 1, totalCapped: false, totalPages: 1, currentPage: 1, limit: SCREENING_PAGE_SIZE };

const person = z.object({ _id: z.string(), userID: z.string(), name: z.string().nullable() });
const held = z.object({
  _id: z.string(),
  kind: z.enum(SCREENING_HOLD_KINDS),
  status: z.enum(["held", "released", "rejected"]),
  author: person,
  recipient: person.nullable(),
  title: z.string().nullable(),
  body: z.string().meta({ description: "As it would be delivered (masked where a mask rule matched)" }),
  matches: z.array(
    z.object({
      ruleId: z.string(),
      category: z.enum(SCREENING_CATEGORY_VALUES),
      action: z.enum(["mask", "hold", "refuse"]),
      excerpt: z.string(),
    }),
  ),
  chargedPoints: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  reason: z.string().nullable(),
  recentScreenings: z.number().int().min(0),
  flagged: z.boolean().meta({ description: "The author had 5 or more held or refused items in the last 24 hours" }),
});

const ruleErrors = {
  400: [
    MSG.screeningPatternRequired,
    MSG.screeningPatternTooLong,
    MSG.screeningPatternInvalid,
    MSG.screeningWordEmpty,
    MSG.screeningCategoryInvalid,
    MSG.screeningActionInvalid,
    MSG.screeningNoteTooLong,
    MSG.textInvalid,
  ],
  409: MSG.screeningRuleDuplicate,
} as const;

const ruleDescription = `kind: word (matched on the normalised text: full-width, kana, case and what is written between characters ignored) or pattern (a regular expression on the contact form). category: ${categories}. action: ${actions}.`;

export const screeningRoutes = [
  route({
    method: "GET",
    path: "/api/admin/screening/rules",
    summary: "Admin: the screening rules, by category, 20 a page",
    access: "admin",
    input: z.object({
      category: z.enum(SCREENING_CATEGORY_VALUES, { error: MSG.screeningCategoryInvalid }).optional(),
      keyword: text({ max: 200 }).optional(),
      page: queryNumber(z.number().int().min(1).max(1_000_001).optional()),
    }),
    response: z.object({ rules: z.array(rule), pagination }),
    example: { rules: [EXAMPLE_RULE], pagination: EXAMPLE_PAGINATION },
    errors: { 400: [MSG.screeningCategoryInvalid, MSG.badRequest] },
    handler: async (caller, input) => {
      const page = await caller.adminScreening.rules(input);
      return { rules: page.rules.map(toRule), pagination: page.pagination };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/screening/rules",
    summary: "Admin: add a screening rule (applies to every instance within seconds; audited)",
    description: ruleDescription,
    access: "admin",
    input: screeningRuleInput,
    response: z.object({ success: z.literal(true), message: z.string(), rule }),
    status: 201,
    example: { success: true, message: MSG.screeningRuleSaved, rule: EXAMPLE_RULE },
    errors: ruleErrors,
    handler: async (caller, input) => ({
      success: true as const,
      message: MSG.screeningRuleSaved,
      rule: toRule(await caller.adminScreening.createRule(input)),
    }),
  }),
  route({
    method: "PUT",
    path: "/api/admin/screening/rules/:id",
    summary: "Admin: change a screening rule (word, category, action, note, on or off; audited)",
    description: ruleDescription,
    access: "admin",
    input: screeningRuleUpdateInput,
    response: z.object({ success: z.literal(true), message: z.string(), rule }),
    example: { success: true, message: MSG.screeningRuleSaved, rule: EXAMPLE_RULE },
    errors: { ...ruleErrors, 404: MSG.notFound },
    handler: async (caller, input) => ({
      success: true as const,
      message: MSG.screeningRuleSaved,
      rule: toRule(await caller.adminScreening.updateRule(input)),
    }),
  }),
  route({
    method: "DELETE",
    path: "/api/admin/screening/rules/:id",
    summary: "Admin: delete a screening rule (audited)",
    access: "admin",
    input: idParam,
    response: z.object({ success: z.literal(true), message: z.string() }),
    example: { success: true, message: MSG.screeningRuleDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminScreening.deleteRule(input);
      return { success: true as const, message: MSG.screeningRuleDeleted };
    },
  }),
  route({
    method: "GET",
    path: "/api/admin/screening/held",
    summary: "Admin: messages and board posts a screening rule held (oldest first), or those decided (newest first)",
    access: "admin",
    input: z.object({
      status: z.enum(["held", "decided"], { error: MSG.badRequest }).optional(),
      kind: z.enum(SCREENING_HOLD_KINDS, { error: MSG.badRequest }).optional(),
      page: queryNumber(z.number().int().min(1).max(1_000_001).optional()),
    }),
    response: z.object({ items: z.array(held), pagination }),
    example: {
      items: [
        {
          _id: EXAMPLE_HOLD_ID,
          kind: "message",
          status: "held",
          author: { _id: "9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4", userID: "p7w2k9zd", name: "佐藤太郎" },
          recipient: { _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c", userID: "k3x9m2pq", name: "山田花子" },
          title: null,
          body: "ホ別2 ＊＊＊",
          matches: [{ ruleId: EXAMPLE_RULE_ID, category: "solicitation", action: "hold", excerpt: "ホ別" }],
          chargedPoints: 5,
          createdAt: "2025-08-21T09:30:00.000Z",
          decidedAt: null,
          reason: null,
          recentScreenings: 1,
          flagged: false,
        },
      ],
      pagination: EXAMPLE_PAGINATION,
    },
    errors: { 400: MSG.badRequest },
    handler: async (caller, input) => {
      const page = await caller.adminScreening.queue(input);
      return {
        items: page.items.map(({ id, author, recipient, createdAt, decidedAt, ...item }) => ({
          _id: id,
          ...item,
          author: { _id: author.id, userID: author.userID, name: author.name },
          recipient: recipient ? { _id: recipient.id, userID: recipient.userID, name: recipient.name } : null,
          createdAt: new Date(createdAt).toISOString(),
          decidedAt: decidedAt ? new Date(decidedAt).toISOString() : null,
        })),
        pagination: page.pagination,
      };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/screening/held/:id/release",
    summary: "Admin: deliver a held message or publish a held post now (once; audited)",
    access: "admin",
    input: idParam,
    response: z.object({ success: z.literal(true), message: z.string() }),
    example: { success: true, message: MSG.screeningReleased },
    errors: { 404: MSG.notFound, 409: MSG.screeningAlreadyDecided },
    handler: async (caller, input) => {
      await caller.adminScreening.release(input);
      return { success: true as const, message: MSG.screeningReleased };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/screening/held/:id/reject",
    summary: "Admin: never deliver a held item; its points are refunded through the ledger (once; audited)",
    description: "reason: trimmed, 1–500 characters, for the administrators (the member is not told why).",
    access: "admin",
    input: screeningRejectInput,
    response: z.object({ success: z.literal(true), message: z.string(), refunded: z.number().int().min(0) }),
    example: { success: true, message: MSG.screeningRejected, refunded: 5 },
    errors: {
      400: [MSG.screeningReasonRequired, MSG.screeningReasonTooLong, MSG.textInvalid],
      404: MSG.notFound,
      409: MSG.screeningAlreadyDecided,
    },
    handler: async (caller, input) => {
      const result = await caller.adminScreening.reject(input);
      return { success: true as const, message: MSG.screeningRejected, refunded: result.refunded };
    },
  }),
];
