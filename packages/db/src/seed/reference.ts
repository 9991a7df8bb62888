import {
  BANK_TRANSFER_BALANCE_DEFAULT,
  EXCHANGE_RATE_DEFAULT,
  POINT_COST_TABLE,
  PURCHASE_LIMIT_DEFAULTS,
} from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { annualIncomes, occupations, paymentSettings, pointCosts } from "../schema";

export const STARTER_OCCUPATIONS = [
  "会社員",
  "公務員",
  "経営者・役員",
  "自営業",
  "医師",
  "看護師",
  "教師",
  "エンジニア",
  "デザイナー",
  "販売・サービス",
  "学生",
  "その他",
];

export const STARTER_ANNUAL_INCOMES = [
  "200万円未満",
  "200万円〜400万円",
  "400万円〜600万円",
  "600万円〜800万円",
  "800万円〜1000万円",
  "1000万円〜1500万円",
  "1500万円以上",
];

/**
 * Reference data every installation needs. Idempotent: rows that exist are left alone, so an
 * administrator's later edits survive restarts. The starter lists are added only to empty tables.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(pointCosts)
      .values(
        POINT_COST_TABLE.map((row, index) => ({
          actionName: row.actionName,
          displayName: row.displayName,
          pointCost: row.initialFee,
          maxCost: row.initialFee,
          description: row.description,
          sortOrder: index,
        })),
      )
      .onConflictDoNothing();
    await tx
      .insert(paymentSettings)
      .values({
        id: 1,
        exchangeYenAmount: EXCHANGE_RATE_DEFAULT.yenAmount,
        exchangePointAmount: EXCHANGE_RATE_DEFAULT.pointAmount,
        exchangeIsActive: EXCHANGE_RATE_DEFAULT.isActive,
        minimumPurchase: PURCHASE_LIMIT_DEFAULTS.minimumPurchase,
        maximumPurchase: PURCHASE_LIMIT_DEFAULTS.maximumPurchase,
        bankTransferBalance: BANK_TRANSFER_BALANCE_DEFAULT,
      })
      .onConflictDoNothing();
    const [occ] = await tx.select({ n: sql<number>`count(*)::int` }).from(occupations);
    if (occ?.n === 0)
      await tx.insert(occupations).values(STARTER_OCCUPATIONS.map((name, sortOrder) => ({ name, sortOrder })));
    const [inc] = await tx.select({ n: sql<number>`count(*)::int` }).from(annualIncomes);
    if (inc?.n === 0)
      await tx.insert(annualIncomes).values(STARTER_ANNUAL_INCOMES.map((label, sortOrder) => ({ label, sortOrder })));
  });
}
