import { z } from "zod";
import { BONUS_FIXED_POINTS_MAX, BONUS_RATE_MAX_PERCENT, BONUS_TIERS_MAX, CAMPAIGN_NAME_MAX } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { paymentMethodSchema } from "./payments";
import { text } from "./text";
import { instant, money } from "./values";

/** Purchase bonuses and campaigns (decision 0047): what administrators save and what members ask. */

const ratePercent = z
  .number({ error: MSG.bonusRateInvalid })
  .int(MSG.bonusRateInvalid)
  .min(1, MSG.bonusRateInvalid)
  .max(BONUS_RATE_MAX_PERCENT, MSG.bonusRateInvalid);
const fixedPoints = z
  .number({ error: MSG.bonusFixedInvalid })
  .int(MSG.bonusFixedInvalid)
  .min(1, MSG.bonusFixedInvalid)
  .max(BONUS_FIXED_POINTS_MAX, MSG.bonusFixedInvalid);

/** A bonus's worth: a rate (% of the purchased points) or fixed points, exactly one of them. */
const worth = { ratePercent: ratePercent.nullable().default(null), fixedPoints: fixedPoints.nullable().default(null) };
const exactlyOne: [
  (v: { ratePercent: number | null; fixedPoints: number | null }) => boolean,
  { message: string; path: PropertyKey[] },
] = [
  (v) => (v.ratePercent === null) !== (v.fixedPoints === null),
  { message: MSG.bonusValueRequired, path: ["ratePercent"] },
];

export const bonusWorthInput = z.object(worth).refine(...exactlyOne);

export const bonusTierInput = z
  .object({ minAmount: money({ message: MSG.bonusTierAmountInvalid }), ...worth })
  .refine(...exactlyOne);

/**
 * `adminPayments.saveBonusRules`: the first-purchase bonus (null: none) and the amount tiers, in
 * force from the moment they are saved; orders placed before keep the rules of their time.
 */
export const bonusRulesSaveInput = z
  .object({
    firstPurchase: bonusWorthInput.nullable(),
    tiers: z.array(bonusTierInput, { error: MSG.badRequest }).max(BONUS_TIERS_MAX, MSG.bonusTiersTooMany),
  })
  .refine((v) => new Set(v.tiers.map((t) => t.minAmount)).size === v.tiers.length, {
    message: MSG.bonusTiersDuplicate,
    path: ["tiers"],
  });
export type BonusRulesSaveInput = z.infer<typeof bonusRulesSaveInput>;

/**
 * `adminPayments.createCampaign`: a period (an instant each; without an offset, Japan's time), a
 * worth, and optionally one payment method. The end must come after the start; a start in the past
 * and a period overlapping another campaign of the same method are refused by the service.
 */
export const campaignCreateInput = z
  .object({
    name: text({ max: CAMPAIGN_NAME_MAX, tooLong: MSG.campaignNameTooLong, required: MSG.campaignNameRequired }),
    paymentMethod: paymentMethodSchema.nullable().default(null),
    startsAt: instant(MSG.campaignStartInvalid),
    endsAt: instant(MSG.campaignEndInvalid),
    ...worth,
  })
  .refine(...exactlyOne)
  .refine((v) => v.endsAt.getTime() > v.startsAt.getTime(), { message: MSG.campaignEndBeforeStart, path: ["endsAt"] });
export type CampaignCreateInput = z.infer<typeof campaignCreateInput>;

/** `adminPayments.endCampaign`: one not started yet is withdrawn, a running one ends now. */
export const campaignEndInput = z.object({ id: uuid(MSG.notFound) });

/** `purchase.bonusQuote`: the bonus a purchase of `amount` yen by `paymentMethod` would get now. */
export const bonusQuoteInput = z.object({ amount: money(), paymentMethod: paymentMethodSchema });
export type BonusQuoteInput = z.infer<typeof bonusQuoteInput>;
