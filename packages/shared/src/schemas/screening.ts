import { z } from "zod";
import {
  SCREENING_ACTION_VALUES,
  SCREENING_CATEGORY_VALUES,
  SCREENING_HOLD_KINDS,
  SCREENING_RULE_KINDS,
} from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";
import { pageNumber } from "./values";

/** Screening rules and the held-item queue (administrators only; docs/decisions/0042). */

export const SCREENING_PATTERN_MAX = 200;
export const SCREENING_NOTE_MAX = 500;
export const SCREENING_REASON_MAX = 500;
export const SCREENING_PAGE_SIZE = 20;

/** Whether `pattern` is a regular expression the screening can run (Unicode mode, as it is compiled). */
export function isRegExpSource(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

const ruleFields = {
  kind: z.enum(SCREENING_RULE_KINDS, { error: MSG.badRequest }),
  pattern: text({
    max: SCREENING_PATTERN_MAX,
    required: MSG.screeningPatternRequired,
    tooLong: MSG.screeningPatternTooLong,
  }),
  category: z.enum(SCREENING_CATEGORY_VALUES, { error: MSG.screeningCategoryInvalid }),
  action: z.enum(SCREENING_ACTION_VALUES, { error: MSG.screeningActionInvalid }),
  /** The administrators' own note (why the rule exists); blank is none. */
  note: text({ max: SCREENING_NOTE_MAX, tooLong: MSG.screeningNoteTooLong }).default(""),
  enabled: z.boolean({ error: MSG.badRequest }).default(true),
};

/** A pattern rule must be a valid regular expression (checked in the schema: never a 500 later). */
const validPattern = (v: { kind: string; pattern: string }) => v.kind !== "pattern" || isRegExpSource(v.pattern);

export const screeningRuleInput = z
  .object(ruleFields)
  .refine(validPattern, { message: MSG.screeningPatternInvalid, path: ["pattern"] });
export type ScreeningRuleInput = z.input<typeof screeningRuleInput>;
export type ScreeningRuleValues = z.output<typeof screeningRuleInput>;

export const screeningRuleUpdateInput = z
  .object({ id: uuid(MSG.notFound), ...ruleFields })
  .refine(validPattern, { message: MSG.screeningPatternInvalid, path: ["pattern"] });
export type ScreeningRuleUpdateInput = z.output<typeof screeningRuleUpdateInput>;

export const screeningRuleIdInput = z.object({ id: uuid(MSG.notFound) });

export const screeningRuleListInput = z.object({
  category: z.enum(SCREENING_CATEGORY_VALUES, { error: MSG.screeningCategoryInvalid }).optional(),
  /** A part of the word or pattern, or of the note. */
  keyword: text({ max: SCREENING_PATTERN_MAX }).optional(),
  page: pageNumber().default(1),
});
export type ScreeningRuleListInput = z.input<typeof screeningRuleListInput>;

/** The held-item queue: oldest first, waiting items (or the decided ones, newest decision first). */
export const screeningQueueInput = z.object({
  status: z.enum(["held", "decided"], { error: MSG.badRequest }).default("held"),
  kind: z.enum(SCREENING_HOLD_KINDS, { error: MSG.badRequest }).optional(),
  page: pageNumber().default(1),
});
export type ScreeningQueueInput = z.input<typeof screeningQueueInput>;

export const screeningReleaseInput = z.object({ id: uuid(MSG.notFound) });

export const screeningRejectInput = z.object({
  id: uuid(MSG.notFound),
  reason: text({
    max: SCREENING_REASON_MAX,
    required: MSG.screeningReasonRequired,
    tooLong: MSG.screeningReasonTooLong,
  }),
});
export type ScreeningRejectInput = z.output<typeof screeningRejectInput>;
