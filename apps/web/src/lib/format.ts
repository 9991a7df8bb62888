/** Dates shown in the Japanese locale (spec §9). */
const dateFormat = new Intl.DateTimeFormat("ja-JP", { year: "numeric", month: "long", day: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("ja-JP", { dateStyle: "medium", timeStyle: "short" });

export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return dateFormat.format(new Date(value));
}

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return dateTimeFormat.format(new Date(value));
}

/**
 * An amount of points, written one way on every screen, dialog and legal page: 「1,234pt」, no
 * space (the catalogue's messages write it so too; decision 0032).
 */
export function formatPoints(points: number): string {
  return `${points.toLocaleString("ja-JP")}pt`;
}

/** A price in points: 「無料」 at 0, else as formatPoints. */
export function formatCost(points: number): string {
  return points === 0 ? "無料" : formatPoints(points);
}
