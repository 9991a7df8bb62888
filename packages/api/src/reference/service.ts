import { annualIncomes, type Db, occupations, pointCosts } from "@enmusubi/db";
import {
  type AnnualIncomeCreateInput,
  MSG,
  type OccupationCreateInput,
  OFFERED_ACTIONS,
  POINT_COST_ABSOLUTE_MAX,
  POINT_COST_TABLE,
  type PointCostCreateInput,
  type PointCostUpdateInput,
  pointCostAboveCap,
} from "@enmusubi/shared";
import { asc, eq, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, isUniqueViolation, notFound } from "../errors";
import { cachedList, changeReferenceList } from "./cache";

/**
 * Reference data (spec §3 Occupation, Annual income, Point cost): public read lists the member
 * shell and the admin screens load, and the administrator's changes to them. Every change writes
 * the audit log in its own transaction and announces itself there, so every process drops its
 * in-memory copy of the list (cache.ts); the `cached…` readers answer from that copy.
 */

export interface Occupation {
  id: string;
  name: string;
}
export interface AnnualIncome {
  id: string;
  label: string;
}

export function listOccupations(db: Db): Promise<Occupation[]> {
  return db
    .select({ id: occupations.id, name: occupations.name })
    .from(occupations)
    .orderBy(asc(occupations.sortOrder), asc(occupations.createdAt), asc(occupations.name));
}

export function listAnnualIncomes(db: Db): Promise<AnnualIncome[]> {
  return db
    .select({ id: annualIncomes.id, label: annualIncomes.label })
    .from(annualIncomes)
    .orderBy(asc(annualIncomes.sortOrder), asc(annualIncomes.createdAt), asc(annualIncomes.label));
}

export async function createOccupation(db: Db, adminId: string, input: OccupationCreateInput): Promise<Occupation> {
  try {
    return await changeReferenceList(db, "occupations", async (tx) => {
      const [row] = await tx
        .insert(occupations)
        .values({
          name: input.name,
          sortOrder: sql`(select coalesce(max(${occupations.sortOrder}), -1) + 1 from ${occupations})`,
        })
        .returning({ id: occupations.id, name: occupations.name });
      if (!row) throw new Error("insert returned nothing");
      await writeAudit(tx, {
        adminId,
        action: "occupation.create",
        targetType: "occupation",
        targetId: row.id,
        details: { name: row.name },
      });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.occupationTaken);
    throw error;
  }
}

export async function createAnnualIncome(
  db: Db,
  adminId: string,
  input: AnnualIncomeCreateInput,
): Promise<AnnualIncome> {
  try {
    return await changeReferenceList(db, "annual_incomes", async (tx) => {
      const [row] = await tx
        .insert(annualIncomes)
        .values({
          label: input.label,
          sortOrder: sql`(select coalesce(max(${annualIncomes.sortOrder}), -1) + 1 from ${annualIncomes})`,
        })
        .returning({ id: annualIncomes.id, label: annualIncomes.label });
      if (!row) throw new Error("insert returned nothing");
      await writeAudit(tx, {
        adminId,
        action: "annual_income.create",
        targetType: "annual_income",
        targetId: row.id,
        details: { label: row.label },
      });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.annualIncomeTaken);
    throw error;
  }
}

/** Members who had chosen the deleted entry keep their profile with that field unset (FK set null). */
export async function deleteOccupation(db: Db, adminId: string, id: string): Promise<void> {
  await changeReferenceList(db, "occupations", async (tx) => {
    const [row] = await tx.delete(occupations).where(eq(occupations.id, id)).returning({ name: occupations.name });
    if (!row) throw notFound();
    await writeAudit(tx, {
      adminId,
      action: "occupation.delete",
      targetType: "occupation",
      targetId: id,
      details: { name: row.name },
    });
  });
}

export async function deleteAnnualIncome(db: Db, adminId: string, id: string): Promise<void> {
  await changeReferenceList(db, "annual_incomes", async (tx) => {
    const [row] = await tx
      .delete(annualIncomes)
      .where(eq(annualIncomes.id, id))
      .returning({ label: annualIncomes.label });
    if (!row) throw notFound();
    await writeAudit(tx, {
      adminId,
      action: "annual_income.delete",
      targetType: "annual_income",
      targetId: id,
      details: { label: row.label },
    });
  });
}

export interface PointCost {
  actionName: string;
  displayName: string;
  pointCost: number;
  description: string;
  /** The highest cost the server accepts for this action. */
  maxCost: number;
  /**
   * Charged by the product (the shared table's `offered`): only these are shown to members as
   * prices; an administrator sees every row, the others marked as not offered (decision 0026).
   */
  offered: boolean;
}

const pointCostColumns = {
  actionName: pointCosts.actionName,
  displayName: pointCosts.displayName,
  pointCost: pointCosts.pointCost,
  description: pointCosts.description,
  maxCost: sql<number>`coalesce(${pointCosts.maxCost}, ${POINT_COST_ABSOLUTE_MAX})`.mapWith(Number),
};

const withOffered = (row: Omit<PointCost, "offered">): PointCost => ({
  ...row,
  offered: OFFERED_ACTIONS.has(row.actionName),
});

export async function listPointCosts(db: Db): Promise<PointCost[]> {
  const rows = await db
    .select(pointCostColumns)
    .from(pointCosts)
    .orderBy(asc(pointCosts.sortOrder), asc(pointCosts.actionName));
  return rows.map(withOffered);
}

/** The price list as `viewer` may read it: every row for an administrator, the offered ones for anyone else. */
export function pointCostsFor(costs: readonly PointCost[], viewer: { role: string } | null | undefined): PointCost[] {
  return viewer?.role === "admin" ? [...costs] : costs.filter((cost) => cost.offered);
}

/** The lists as this process last read them (cache.ts): no statement until an administrator changes one. */
export const cachedOccupations = (db: Db) => cachedList(db, "occupations", () => listOccupations(db));
export const cachedAnnualIncomes = (db: Db) => cachedList(db, "annual_incomes", () => listAnnualIncomes(db));
export const cachedPointCosts = (db: Db) => cachedList(db, "point_costs", () => listPointCosts(db));

function assertWithinCap(pointCost: number, cap: number) {
  if (pointCost > cap) throw new AppError("BAD_REQUEST", pointCostAboveCap(cap));
}

/**
 * Inline edit. A cost is never above the row's initial fee from the legal table (spec §9 "never
 * higher"); rows added later are capped at the table's highest fee. The row is locked so two
 * concurrent edits are applied one after the other and each is audited with its true "from".
 */
export async function updatePointCost(db: Db, adminId: string, input: PointCostUpdateInput): Promise<PointCost> {
  return changeReferenceList(db, "point_costs", async (tx) => {
    const [current] = await tx
      .select(pointCostColumns)
      .from(pointCosts)
      .where(eq(pointCosts.actionName, input.actionName))
      .for("update");
    if (!current) throw notFound();
    if (input.pointCost !== undefined) assertWithinCap(input.pointCost, current.maxCost);
    const changes = {
      ...(input.pointCost !== undefined ? { pointCost: input.pointCost } : {}),
      ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
    };
    if (Object.keys(changes).length === 0) return withOffered(current);
    const [row] = await tx
      .update(pointCosts)
      .set(changes)
      .where(eq(pointCosts.actionName, input.actionName))
      .returning(pointCostColumns);
    if (!row) throw notFound();
    const diff = Object.fromEntries(
      Object.entries(changes).map(([key, to]) => [key, { from: current[key as keyof typeof current], to }]),
    );
    await writeAudit(tx, {
      adminId,
      action: "point_cost.update",
      targetType: "point_cost",
      targetId: input.actionName,
      details: diff,
    });
    return withOffered(row);
  });
}

export async function createPointCost(db: Db, adminId: string, input: PointCostCreateInput): Promise<PointCost> {
  assertWithinCap(input.pointCost, POINT_COST_ABSOLUTE_MAX);
  try {
    return await changeReferenceList(db, "point_costs", async (tx) => {
      const [row] = await tx
        .insert(pointCosts)
        .values({
          ...input,
          sortOrder: sql`(select coalesce(max(${pointCosts.sortOrder}), -1) + 1 from ${pointCosts})`,
        })
        .returning(pointCostColumns);
      if (!row) throw new Error("insert returned nothing");
      await writeAudit(tx, {
        adminId,
        action: "point_cost.create",
        targetType: "point_cost",
        targetId: row.actionName,
        details: { ...input },
      });
      return withOffered(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.actionNameTaken);
    throw error;
  }
}

const LEGAL_ACTIONS = new Set(POINT_COST_TABLE.map((row) => row.actionName));

/**
 * Rows of the legal fee table stay: the terms name them and the charging code looks them up, so
 * deleting one would make that action fail for every member. They can be made free (cost 0).
 */
export async function deletePointCost(db: Db, adminId: string, actionName: string): Promise<void> {
  if (LEGAL_ACTIONS.has(actionName)) throw new AppError("BAD_REQUEST", MSG.legalPointCostNotDeletable);
  await changeReferenceList(db, "point_costs", async (tx) => {
    const [row] = await tx.delete(pointCosts).where(eq(pointCosts.actionName, actionName)).returning(pointCostColumns);
    if (!row) throw notFound();
    await writeAudit(tx, {
      adminId,
      action: "point_cost.delete",
      targetType: "point_cost",
      targetId: actionName,
      details: { ...row },
    });
  });
}
