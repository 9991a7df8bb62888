/**
 * A list's count as the admin screens show it: "1,234件", or "1,000件以上" when the server stopped
 * counting at its cap (decision 0011: no list counts 1,000,000 rows for every page).
 */
export function countLabel(total: number, capped = false): string {
  return `${total.toLocaleString("ja-JP")}件${capped ? "以上" : ""}`;
}
