import { type Db, pointCosts } from "@enmusubi/db";
import { FREE_POINT_VALIDITY_DAYS, OFFERED_ACTIONS, POINT_VALIDITY_YEARS } from "@enmusubi/shared";
import { asc, inArray } from "drizzle-orm";
import type { OperatorInfo } from "../deps";
import { publicBonusRules } from "./bonuses";
import { usableMethods } from "./methods";
import { bankOf, loadSettings, pointsFor } from "./settings";

/** What the public and members read of the payment settings: the legal figures, the purchase screen, a quote. */

/** `legal.info`: what 特商法, the terms and the purchase screen all show, from one place. */
export async function legalInfo(db: Db, operator: OperatorInfo | undefined) {
  const settings = await loadSettings(db);
  // The prices the product charges, nothing it does not offer (decision 0026).
  const costs = await db
    .select({ actionName: pointCosts.actionName, displayName: pointCosts.displayName, pointCost: pointCosts.pointCost })
    .from(pointCosts)
    .where(inArray(pointCosts.actionName, [...OFFERED_ACTIONS]))
    .orderBy(asc(pointCosts.sortOrder), asc(pointCosts.actionName));
  const placeholder = (v: string) => `（未設定：${v}）`;
  return {
    exchange: { yenAmount: settings.exchangeYenAmount, pointAmount: settings.exchangePointAmount },
    minimumPurchase: settings.minimumPurchase,
    maximumPurchase: settings.maximumPurchase,
    methods: usableMethods(settings),
    pointValidityYears: POINT_VALIDITY_YEARS,
    /** Free points (the sign-up bonus, grants): 180 days (decisions 0008, 0034). */
    freePointValidityDays: FREE_POINT_VALIDITY_DAYS,
    operator: operator ?? {
      name: placeholder("OPERATOR_NAME"),
      address: placeholder("OPERATOR_ADDRESS"),
      phone: placeholder("OPERATOR_PHONE"),
      email: placeholder("OPERATOR_EMAIL"),
      datingBusinessNumber: placeholder("DATING_BUSINESS_NUMBER"),
    },
    pointCosts: costs,
    /** The purchase bonuses in force and the campaigns announced (decision 0047), from the rules the credit reads. */
    bonuses: await publicBonusRules(db),
  };
}

/**
 * `purchase.settings`: what a member needs to order. Never the SmartPit API key or id. A method is
 * offered only when it is switched on and configured completely (`usableMethods`).
 */
export async function memberPurchaseSettings(db: Db) {
  const s = await loadSettings(db);
  const methods = usableMethods(s);
  return {
    exchange: { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount, isActive: s.exchangeIsActive },
    minimumPurchase: s.minimumPurchase,
    maximumPurchase: s.maximumPurchase,
    methods,
    bank: methods.bankTransfer ? bankOf(s) : null,
  };
}

export async function quote(db: Db, amount: number) {
  const s = await loadSettings(db);
  return { amount, points: pointsFor(amount, { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount }) };
}
