/**
 * How many pages a list offers, the one rule for every list (decision 0023): at least one, so an empty
 * result is "page 1 of 1" with nothing on it (the screens hide the pager, the legacy answers keep
 * `totalPages >= 1`); with a capped total (capped-count.ts), one more page than the counted rows
 * fill, since there are more. Rows before a page: `pageOffset` of @enmusubi/shared.
 */
export function pagesFor(total: number, totalCapped: boolean, pageSize: number): number {
  return Math.max(1, Math.ceil((totalCapped ? total + 1 : total) / pageSize));
}
