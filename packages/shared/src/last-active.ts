/**
 * When a member was last active, as other members see it (decision 0029): a bucket, never a time.
 * The server computes it (members/profile-detail.ts) so the exact time never leaves it; the web
 * shows the label as it is.
 */

/** A session refreshes its member's last_active_at at most once per this many minutes (context.ts). */
export const LAST_ACTIVE_REFRESH_MINUTES = 5;

const HOUR = 60 * 60 * 1000;

/** Upper bounds, inclusive, in order; past the last one: 「1ヶ月以上」. */
const BUCKETS = [
  { label: "24時間以内", within: 24 * HOUR },
  { label: "3日以内", within: 3 * 24 * HOUR },
  { label: "1週間以内", within: 7 * 24 * HOUR },
  { label: "1ヶ月以内", within: 30 * 24 * HOUR },
] as const;

export const LAST_ACTIVE_OVER = "1ヶ月以上";
export const LAST_ACTIVE_BUCKETS = [...BUCKETS.map((b) => b.label), LAST_ACTIVE_OVER] as const;
export type LastActiveBucket = (typeof LAST_ACTIVE_BUCKETS)[number];

/**
 * The bucket of a last activity at `at`, seen at `now`: the first whose bound the time since is
 * within (24 hours exactly is still 「24時間以内」; a time after `now`, a clock's skew, too).
 */
export function lastActiveBucket(at: Date, now: Date): LastActiveBucket {
  const since = now.getTime() - at.getTime();
  for (const bucket of BUCKETS) if (since <= bucket.within) return bucket.label;
  return LAST_ACTIVE_OVER;
}
