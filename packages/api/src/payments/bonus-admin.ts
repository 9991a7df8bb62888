import { type Db, purchaseBonusGrants, purchaseBonusRules } from "@enmusubi/db";
import {
  type BonusRulesSaveInput,
  type CampaignCreateInput,
  MSG,
  PAYMENT_METHODS,
  type PaymentMethod,
  PURCHASE_PACKS,
} from "@enmusubi/shared";
import { and, count, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, notFound } from "../errors";
import { databaseNow, rulesInForceAt, toBonusRule } from "./bonuses";
import { usableMethodIds } from "./methods";
import { loadSettings } from "./settings";

/**
 * The administrators' side of purchase bonuses (decision 0047): the rules in force, the campaigns,
 * and the changes, each audited. A rule already in force is never changed: new first-purchase and
 * tier rules start when saved (the previous ones end then), a campaign cannot start in the past or
 * overlap another of the same payment method, and a running campaign can only be ended now. So no
 * order's bonus changes after it was placed. Every change runs under the payment settings' row lock,
 * so two administrators cannot both pass the overlap check.
 */

type RuleRow = typeof purchaseBonusRules.$inferSelect;

const CAMPAIGN_LIST_LIMIT = 100;

const worthOf = (r: { ratePercent: number | null; fixedPoints: number | null }) => ({
  ratePercent: r.ratePercent,
  fixedPoints: r.fixedPoints,
});

function campaignView(r: RuleRow, now: Date, granted: number) {
  const state =
    r.startsAt.getTime() > now.getTime()
      ? ("scheduled" as const)
      : r.endsAt && r.endsAt.getTime() <= now.getTime()
        ? ("ended" as const)
        : ("running" as const);
  return {
    id: r.id,
    name: r.name,
    paymentMethod: r.paymentMethod,
    ...worthOf(r),
    startsAt: r.startsAt,
    endsAt: r.endsAt as Date,
    state,
    /** Bonuses booked under it. */
    granted,
  };
}

/**
 * `adminPayments.bonusRules`: the first-purchase bonus and tiers in force, the campaigns (newest
 * first), the payment methods a campaign may be limited to (every method, and whether members are
 * offered it now: payments/methods.ts), and what the preview needs: the packs, the rate and limits.
 */
export async function adminBonusRules(db: Db) {
  const now = await databaseNow(db);
  const inForce = await rulesInForceAt(db, now);
  const first = inForce.find((r) => r.kind === "first_purchase");
  const campaigns = await db
    .select()
    .from(purchaseBonusRules)
    .where(eq(purchaseBonusRules.kind, "campaign"))
    .orderBy(desc(purchaseBonusRules.startsAt), desc(purchaseBonusRules.id))
    .limit(CAMPAIGN_LIST_LIMIT);
  const ids = campaigns.map((c) => c.id);
  const grants = ids.length
    ? await db
        .select({ ruleId: purchaseBonusGrants.ruleId, n: count() })
        .from(purchaseBonusGrants)
        .where(inArray(purchaseBonusGrants.ruleId, ids))
        .groupBy(purchaseBonusGrants.ruleId)
    : [];
  const granted = new Map(grants.map((g) => [g.ruleId, g.n]));
  const s = await loadSettings(db);
  const usable = new Set(usableMethodIds(s));
  return {
    now,
    firstPurchase: first ? { ...worthOf(first), startsAt: first.startsAt } : null,
    tiers: inForce
      .filter((r) => r.kind === "tier")
      .sort((a, b) => a.minAmount - b.minAmount)
      .map((r) => ({ minAmount: r.minAmount, ...worthOf(r), startsAt: r.startsAt })),
    campaigns: campaigns.map((c) => campaignView(c, now, granted.get(c.id) ?? 0)),
    methods: PAYMENT_METHODS.map((method) => ({ method, usable: usable.has(method) })),
    packs: [...PURCHASE_PACKS],
    exchange: { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount },
    minimumPurchase: s.minimumPurchase,
    maximumPurchase: s.maximumPurchase,
  };
}
export type AdminBonusRules = Awaited<ReturnType<typeof adminBonusRules>>;

/** The open (not ended) first-purchase and tier rules, for the audit's before. */
const describe = (rules: RuleRow[]) => ({
  firstPurchase: rules.filter((r) => r.kind === "first_purchase").map(worthOf)[0] ?? null,
  tiers: rules
    .filter((r) => r.kind === "tier")
    .sort((a, b) => a.minAmount - b.minAmount)
    .map((r) => ({ minAmount: r.minAmount, ...worthOf(r) })),
});

/**
 * `adminPayments.saveBonusRules`: the first-purchase bonus and the amount tiers from now on. The
 * open rules end at this transaction's time and the new ones start then; orders placed before keep
 * the rules of their time (decision 0047). Audited before → after.
 */
export async function saveBonusRules(db: Db, adminId: string, input: BonusRulesSaveInput) {
  await db.transaction(async (tx) => {
    await loadSettings(tx, true);
    const open = await tx
      .select()
      .from(purchaseBonusRules)
      .where(and(ne(purchaseBonusRules.kind, "campaign"), isNull(purchaseBonusRules.endsAt)));
    if (open.length > 0) {
      // Rules started before this transaction end now; one started at this very instant (saved
      // twice within one transaction's time) was never in force for any order and goes.
      await tx
        .update(purchaseBonusRules)
        .set({ endsAt: sql`now()`, endedById: adminId })
        .where(
          and(
            inArray(
              purchaseBonusRules.id,
              open.map((r) => r.id),
            ),
            sql`${purchaseBonusRules.startsAt} < now()`,
          ),
        );
      await tx.delete(purchaseBonusRules).where(
        and(
          inArray(
            purchaseBonusRules.id,
            open.map((r) => r.id),
          ),
          sql`${purchaseBonusRules.startsAt} >= now()`,
        ),
      );
    }
    // Both start at this transaction's time, the instant the rules they replace end.
    const startsAt = sql`now()`;
    const first = input.firstPurchase;
    if (first) {
      await tx
        .insert(purchaseBonusRules)
        .values({ kind: "first_purchase", ...worthOf(first), startsAt, createdById: adminId });
    }
    if (input.tiers.length > 0) {
      await tx.insert(purchaseBonusRules).values(
        input.tiers.map((t) => ({
          kind: "tier" as const,
          minAmount: t.minAmount,
          ...worthOf(t),
          startsAt,
          createdById: adminId,
        })),
      );
    }
    await writeAudit(tx, {
      adminId,
      action: "purchase_bonus.rules_save",
      targetType: "purchase_bonus_rules",
      details: {
        before: describe(open),
        after: {
          firstPurchase: first ? worthOf(first) : null,
          tiers: [...input.tiers]
            .sort((a, b) => a.minAmount - b.minAmount)
            .map((t) => ({ minAmount: t.minAmount, ...worthOf(t) })),
        },
      },
    });
  });
  return adminBonusRules(db);
}

/** Campaigns of `method` (null: every method) whose period overlaps [startsAt, endsAt). */
async function overlapping(tx: Db, method: PaymentMethod | null, startsAt: Date, endsAt: Date) {
  return tx
    .select({ id: purchaseBonusRules.id, name: purchaseBonusRules.name })
    .from(purchaseBonusRules)
    .where(
      and(
        eq(purchaseBonusRules.kind, "campaign"),
        lt(purchaseBonusRules.startsAt, endsAt),
        gt(purchaseBonusRules.endsAt, startsAt),
        method === null
          ? undefined
          : or(isNull(purchaseBonusRules.paymentMethod), eq(purchaseBonusRules.paymentMethod, method)),
      ),
    )
    .limit(1);
}

/**
 * `adminPayments.createCampaign`: refused (BAD_REQUEST, nothing written) when it starts before now
 * (an order already placed would change its bonus) or overlaps another campaign of the same payment
 * method (a campaign for every method overlaps them all). The end after the start is the schema's.
 */
export async function createCampaign(db: Db, adminId: string, input: CampaignCreateInput) {
  await db.transaction(async (tx) => {
    await loadSettings(tx, true);
    const now = await databaseNow(tx);
    if (input.startsAt.getTime() < now.getTime()) throw new AppError("BAD_REQUEST", MSG.campaignStartInPast);
    if ((await overlapping(tx, input.paymentMethod, input.startsAt, input.endsAt)).length > 0) {
      throw new AppError("BAD_REQUEST", MSG.campaignOverlaps);
    }
    const [row] = await tx
      .insert(purchaseBonusRules)
      .values({
        kind: "campaign",
        name: input.name,
        paymentMethod: input.paymentMethod,
        ...worthOf(input),
        startsAt: input.startsAt,
        endsAt: input.endsAt,
        createdById: adminId,
      })
      .returning();
    if (!row) throw new Error("insert returned nothing");
    await writeAudit(tx, {
      adminId,
      action: "purchase_bonus.campaign_create",
      targetType: "purchase_bonus_rule",
      targetId: row.id,
      details: {
        after: {
          name: row.name,
          paymentMethod: row.paymentMethod,
          ...worthOf(row),
          startsAt: row.startsAt.toISOString(),
          endsAt: row.endsAt?.toISOString() ?? null,
        },
      },
    });
  });
  return adminBonusRules(db);
}

/**
 * `adminPayments.endCampaign`: a campaign not started yet is withdrawn (no order was placed under
 * it); a running one ends now (orders placed until now keep its bonus); an ended one cannot change
 * (CONFLICT). Audited.
 */
export async function endCampaign(db: Db, adminId: string, id: string) {
  await db.transaction(async (tx) => {
    await loadSettings(tx, true);
    const [row] = await tx
      .select()
      .from(purchaseBonusRules)
      .where(and(eq(purchaseBonusRules.id, id), eq(purchaseBonusRules.kind, "campaign")));
    if (!row) throw notFound();
    const now = await databaseNow(tx);
    const campaign = toBonusRule(row);
    if (campaign.endsAt && campaign.endsAt.getTime() <= now.getTime()) {
      throw new AppError("CONFLICT", MSG.campaignAlreadyEnded);
    }
    const before = { startsAt: row.startsAt.toISOString(), endsAt: row.endsAt?.toISOString() ?? null };
    const scheduled = campaign.startsAt.getTime() > now.getTime();
    let after: { startsAt: string; endsAt: string | null } | null = null;
    if (scheduled) {
      await tx.delete(purchaseBonusRules).where(eq(purchaseBonusRules.id, id));
    } else {
      // Ends now; a campaign started at this very instant ends a millisecond after its start.
      const [ended] = await tx
        .update(purchaseBonusRules)
        .set({
          endsAt: sql`greatest(now(), ${purchaseBonusRules.startsAt} + interval '1 millisecond')`,
          endedById: adminId,
        })
        .where(and(eq(purchaseBonusRules.id, id), lte(purchaseBonusRules.startsAt, sql`now()`)))
        .returning();
      after = ended ? { startsAt: ended.startsAt.toISOString(), endsAt: ended.endsAt?.toISOString() ?? null } : null;
    }
    await writeAudit(tx, {
      adminId,
      action: scheduled ? "purchase_bonus.campaign_withdraw" : "purchase_bonus.campaign_end",
      targetType: "purchase_bonus_rule",
      targetId: id,
      details: { name: row.name, before, after },
    });
  });
  return adminBonusRules(db);
}
