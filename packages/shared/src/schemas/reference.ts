import { z } from "zod";
import { DEFAULT_NEW_POINT_COST } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";

/** Reference-list ids are UUIDs; anything else cannot name a row. */
export const referenceIdInput = z.object({ id: uuid(MSG.notFound) });

export const REFERENCE_NAME_MAX = 50;

export const occupationCreateInput = z.object({
  name: text({ required: MSG.occupationRequired, max: REFERENCE_NAME_MAX, tooLong: MSG.referenceNameTooLong }),
});
export type OccupationCreateInput = z.infer<typeof occupationCreateInput>;

export const annualIncomeCreateInput = z.object({
  label: text({ required: MSG.annualIncomeRequired, max: REFERENCE_NAME_MAX, tooLong: MSG.referenceNameTooLong }),
});
export type AnnualIncomeCreateInput = z.infer<typeof annualIncomeCreateInput>;

/**
 * Costs above this are refused for actions outside the legal fee table (they have no initial fee
 * of their own): the highest fee the legal text lists (movie playback, 500 pt).
 */
export const POINT_COST_ABSOLUTE_MAX = 500;

export const actionName = text({ max: 50, tooLong: MSG.actionNameInvalid }).regex(
  /^[a-z][a-z0-9_]{1,49}$/,
  MSG.actionNameInvalid,
);

const pointCost = z
  .number({ error: MSG.pointCostInvalid })
  .int(MSG.pointCostInvalid)
  .min(0, MSG.pointCostInvalid)
  .max(1_000_000, MSG.pointCostInvalid);

const displayName = text({
  required: MSG.displayNameRequired,
  max: REFERENCE_NAME_MAX,
  tooLong: MSG.referenceNameTooLong,
});

const description = text({ max: 500, tooLong: MSG.descriptionTooLong });

/** Inline edit of one row (spec §7 PUT /api/point-costs/{actionName}); left-out fields stay. */
export const pointCostUpdateInput = z.object({
  actionName,
  pointCost: pointCost.optional(),
  displayName: displayName.optional(),
  description: description.optional(),
});
export type PointCostUpdateInput = z.infer<typeof pointCostUpdateInput>;

/** The hidden add dialog (spec §2 admin screen 5); a new cost defaults to 5 (spec §9). */
export const pointCostCreateInput = z.object({
  actionName,
  displayName,
  pointCost: pointCost.default(DEFAULT_NEW_POINT_COST),
  description: description.default(""),
});
export type PointCostCreateInput = z.infer<typeof pointCostCreateInput>;

export const pointCostKeyInput = z.object({ actionName });
