import { type Db, rowsOf, screeningRules } from "@enmusubi/db";
import {
  MSG,
  pageOffset,
  SCREENING_PAGE_SIZE,
  type ScreeningRuleListInput,
  type ScreeningRuleUpdateInput,
  type ScreeningRuleValues,
  screeningRuleListInput,
} from "@enmusubi/shared";
import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, isUniqueViolation } from "../errors";
import { cappedCount } from "../lists/capped-count";
import { likeEscape } from "../lists/like";
import { pagesFor } from "../lists/pages";
import { type Rule, RuleSet, wordOf } from "./matcher";

/*
 * The rules, kept in PostgreSQL and edited by administrators (docs/decisions/0042). Each process
 * keeps the enabled rules compiled and asks the database at most every RULES_RECHECK_MS whether
 * they changed (a count and the latest change: one index-free read of a small table), so an edit
 * on one instance applies on every other within seconds, and at once on the one that made it.
 */

/** How long a process uses its compiled rules before asking whether they changed. */
export const RULES_RECHECK_MS = 5_000;

/**
 * The compiled rules of one database, refreshed when they change. One per application (ApiDeps).
 *
 * A refresh reads on the caller's own handle, usually its request's transaction, and only that
 * caller waits for it: a read shared between requests runs in one request's transaction, and a
 * request waiting for it may hold a lock that transaction waits for (a paid send holds its payer's
 * row; another send by the same member waits for it and starts the read). That circle passes
 * through this process, so PostgreSQL cannot see it and nothing ever breaks it. While one caller
 * refreshes, the others keep the compiled rules they have; a caller with none reads its own.
 */
export class ScreeningRules {
  private set: RuleSet | null = null;
  private version = "";
  private checkedAt = 0;
  /** Refreshes in flight (callers with no rules yet each read their own). */
  private refreshing = 0;
  /** Raised by `invalidate`: a read begun before it does not keep what it read. */
  private generation = 0;

  constructor(private readonly recheckMs = RULES_RECHECK_MS) {}

  /** The rules in force, compiled; read with `db` (a request's transaction is fine). */
  async current(db: Db): Promise<RuleSet> {
    const known = this.set;
    if (known && (this.refreshing > 0 || Date.now() - this.checkedAt < this.recheckMs)) return known;
    this.refreshing += 1;
    try {
      return await this.refresh(db);
    } finally {
      this.refreshing -= 1;
    }
  }

  /** Forget the compiled rules (this process changed them): the next screening reads them again. */
  invalidate(): void {
    this.generation += 1;
    this.set = null;
    this.checkedAt = 0;
    this.version = "";
  }

  private async refresh(db: Db): Promise<RuleSet> {
    const generation = this.generation;
    const [state] = await rowsOf<{ version: string }>(
      db,
      sql`select count(*)::text || '/' || coalesce(max(${screeningRules.updatedAt})::text, '') as version from ${screeningRules}`,
    );
    const version = state?.version ?? "";
    const known = this.set;
    if (known && version === this.version) {
      if (generation === this.generation) this.checkedAt = Date.now();
      return known;
    }
    const rows = await db
      .select({
        id: screeningRules.id,
        kind: screeningRules.kind,
        pattern: screeningRules.pattern,
        category: screeningRules.category,
        action: screeningRules.action,
      })
      .from(screeningRules)
      .where(eq(screeningRules.enabled, true));
    const set = new RuleSet(rows as Rule[]);
    if (generation === this.generation) {
      this.set = set;
      this.version = version;
      this.checkedAt = Date.now();
    }
    return set;
  }
}

export interface ScreeningRuleView {
  id: string;
  kind: "word" | "pattern";
  pattern: string;
  category: Rule["category"];
  action: Rule["action"];
  note: string;
  enabled: boolean;
  updatedAt: Date;
}

const ruleColumns = {
  id: screeningRules.id,
  kind: screeningRules.kind,
  pattern: screeningRules.pattern,
  category: screeningRules.category,
  action: screeningRules.action,
  note: screeningRules.note,
  enabled: screeningRules.enabled,
  updatedAt: screeningRules.updatedAt,
};

/** The rules, by category then word, paged; filtered by category and a part of the word or note. */
export async function listRules(db: Db, raw: ScreeningRuleListInput) {
  const input = screeningRuleListInput.parse(raw);
  const keyword = input.keyword ? `%${likeEscape(input.keyword)}%` : undefined;
  const where = and(
    input.category ? eq(screeningRules.category, input.category) : undefined,
    keyword ? or(ilike(screeningRules.pattern, keyword), ilike(screeningRules.note, keyword)) : undefined,
  );
  const { total, totalCapped } = await cappedCount(db, screeningRules, where, input.page * SCREENING_PAGE_SIZE + 1000);
  const rules = await db
    .select(ruleColumns)
    .from(screeningRules)
    .where(where)
    .orderBy(asc(screeningRules.category), asc(screeningRules.kind), asc(screeningRules.pattern))
    .limit(SCREENING_PAGE_SIZE)
    .offset(pageOffset(input.page, SCREENING_PAGE_SIZE));
  return {
    rules: rules as ScreeningRuleView[],
    pagination: {
      total,
      totalCapped,
      totalPages: pagesFor(total, totalCapped, SCREENING_PAGE_SIZE),
      currentPage: input.page,
      limit: SCREENING_PAGE_SIZE,
    },
  };
}

/** A word must keep a letter or a digit once normalised, or it would match nothing. */
function assertUsable(values: ScreeningRuleValues) {
  if (values.kind === "word" && wordOf(values.pattern) === "")
    throw new AppError("BAD_REQUEST", MSG.screeningWordEmpty);
}

const duplicate = (error: unknown) =>
  isUniqueViolation(error) ? new AppError("CONFLICT", MSG.screeningRuleDuplicate) : error;

/** An administrator adds a rule; audited. */
export async function createRule(
  db: Db,
  rules: ScreeningRules,
  adminId: string,
  values: ScreeningRuleValues,
): Promise<ScreeningRuleView> {
  assertUsable(values);
  const created = await db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(screeningRules)
        .values({ ...values, updatedBy: adminId })
        .returning(ruleColumns);
      if (!row) throw new Error("screening rule insert returned nothing");
      await writeAudit(tx, {
        adminId,
        action: "screening.rule.create",
        targetType: "screening_rule",
        targetId: row.id,
        details: { after: values },
      });
      return row as ScreeningRuleView;
    })
    .catch((error: unknown) => {
      throw duplicate(error);
    });
  rules.invalidate();
  return created;
}

/** An administrator changes a rule (word, category, action, note, on or off); audited with before and after. */
export async function updateRule(
  db: Db,
  rules: ScreeningRules,
  adminId: string,
  input: ScreeningRuleUpdateInput,
): Promise<ScreeningRuleView> {
  const { id, ...values } = input;
  assertUsable(values);
  const updated = await db
    .transaction(async (tx) => {
      const [before] = await tx.select(ruleColumns).from(screeningRules).where(eq(screeningRules.id, id)).for("update");
      if (!before) throw new AppError("NOT_FOUND", MSG.notFound);
      const [row] = await tx
        .update(screeningRules)
        .set({ ...values, updatedBy: adminId, updatedAt: sql`now()` })
        .where(eq(screeningRules.id, id))
        .returning(ruleColumns);
      const { updatedAt: _, id: __, ...was } = before;
      await writeAudit(tx, {
        adminId,
        action: "screening.rule.update",
        targetType: "screening_rule",
        targetId: id,
        details: { before: was, after: values },
      });
      return row as ScreeningRuleView;
    })
    .catch((error: unknown) => {
      throw duplicate(error);
    });
  rules.invalidate();
  return updated;
}

/** An administrator deletes a rule; audited with what it was. Held items keep the record of the rule that matched. */
export async function deleteRule(db: Db, rules: ScreeningRules, adminId: string, id: string): Promise<{ ok: true }> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(screeningRules).where(eq(screeningRules.id, id)).returning(ruleColumns);
    if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
    const { updatedAt: _, ...was } = row;
    await writeAudit(tx, {
      adminId,
      action: "screening.rule.delete",
      targetType: "screening_rule",
      targetId: id,
      details: { before: was },
    });
  });
  rules.invalidate();
  return { ok: true };
}
