/** Blocking, reports and moderation (ours: the spec has no such screens). */
export const SAFETY_MSG = {
  /** Sending to, or any exchange with, a member when either has blocked the other. */
  blockedEitherWay: "このメンバーとはやり取りできません。",
} as const;
