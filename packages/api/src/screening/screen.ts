import { type Db, screeningEvents } from "@enmusubi/db";
import { MSG, type ScreeningCategory } from "@enmusubi/shared";
import { AppError } from "../errors";
import { type RuleSet, type Screened, stronger } from "./matcher";

/*
 * The one door every member write goes through before it is stored (docs/decisions/0042): member
 * sends and replies (messages/send.ts, which scheduled entries also take, when scheduled and when
 * dispatched), board posts (board/posts.ts) and profile texts (profile/service.ts). Administrators'
 * own writes are not screened.
 */

/** Where a screened text was written (the events' `source`). */
export type ScreeningSource = "message" | "board_post" | "scheduled" | "profile";

const REFUSALS: Record<ScreeningCategory, string> = {
  contact: MSG.screeningRefusedContact,
  solicitation: MSG.screeningRefusedSolicitation,
  minors: MSG.screeningRefusedMinors,
  external: MSG.screeningRefusedExternal,
  other: MSG.screeningRefusedOther,
};

/**
 * A write refused by a `refuse` rule: 400 with a message naming the kind of content. Nothing of
 * it is stored; the refusal itself is recorded (without the text) once the request's transaction
 * has rolled back (`recordRefusal`, called by the procedures' error mapping in trpc.ts).
 */
export class ScreeningRefusal extends AppError {
  constructor(
    readonly userId: string,
    readonly category: ScreeningCategory,
    readonly source: ScreeningSource,
    message = REFUSALS[category],
  ) {
    super("BAD_REQUEST", message);
  }
}

/** Several fields of one item screened together (a post's title and content): one decision, each field masked. */
export function screenFields<K extends string>(
  rules: RuleSet,
  fields: Record<K, string>,
): Omit<Screened, "text"> & { fields: Record<K, string> } {
  const out = {} as Record<K, string>;
  let action: Screened["action"] = "pass";
  let category: ScreeningCategory | null = null;
  const matches: Screened["matches"] = [];
  for (const key of Object.keys(fields) as K[]) {
    const one = rules.screen(fields[key]);
    out[key] = one.text;
    if (stronger(action, one.action) !== action) {
      action = one.action;
      category = one.category;
    }
    for (const m of one.matches) if (!matches.some((x) => x.ruleId === m.ruleId)) matches.push(m);
  }
  return { action, category, matches, fields: out };
}

/** Throws the refusal when a `refuse` rule matched. */
export function refuseIfRefused(
  screened: { action: Screened["action"]; category: ScreeningCategory | null },
  userId: string,
  source: ScreeningSource,
): void {
  if (screened.action === "refuse") throw new ScreeningRefusal(userId, screened.category ?? "other", source);
}

/** Records a hold in the writer's transaction (no text: who, when, which kind of content). */
export async function recordHold(tx: Db, userId: string, category: ScreeningCategory | null, source: ScreeningSource) {
  await tx.insert(screeningEvents).values({ userId, action: "hold", category: category ?? "other", source });
}

/** Records a refusal after its request rolled back (never fails the answer: a failed record is logged by the caller). */
export async function recordRefusal(db: Db, refusal: ScreeningRefusal): Promise<void> {
  await db
    .insert(screeningEvents)
    .values({ userId: refusal.userId, action: "refuse", category: refusal.category, source: refusal.source });
}
