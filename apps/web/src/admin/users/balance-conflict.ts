import { MSG } from "@enmusubi/shared";
import { TRPCClientError } from "@trpc/client";
import { formatPoints } from "../../lib/format";

export interface Balances {
  points: number;
  sendPoints: number;
}

/**
 * The current balances a refused balance edit carries (CONFLICT: the balance moved after the screen
 * read it), or null for any other error.
 */
export function balanceConflict(error: unknown): Balances | null {
  if (!(error instanceof TRPCClientError) || error.data?.code !== "CONFLICT") return null;
  const details = error.data?.details as Partial<Balances> | undefined;
  if (typeof details?.points !== "number" || typeof details.sendPoints !== "number") return null;
  return { points: details.points, sendPoints: details.sendPoints };
}

/** What the screen says then: nothing was saved, and the figures to decide against. */
export function balanceConflictText(current: Balances): string {
  return `${MSG.balanceChanged}（現在のポイント: ${formatPoints(current.points)}、送信ポイント: ${formatPoints(current.sendPoints)}）`;
}
