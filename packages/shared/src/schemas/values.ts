import { z } from "zod";
import { MSG } from "../messages";

/**
 * The values every list and filter takes, one schema each (decision 0019 "No 500 for any input"):
 * a calendar day, an instant, a page of a list, and "end not before start". Every route and
 * procedure that takes one of them uses these, so an impossible day (2025-02-31), a year the
 * database cannot store (0000, 99999), a reversed range or a page past any sane offset is refused
 * here with a Japanese message, before a query is built.
 */

/** Years a day or an instant may name: wide enough for any birthday, filter or schedule, narrow enough for every database and `Date`. */
export const YEAR_MIN = 1900;
export const YEAR_MAX = 2999;

/** Japan has one offset all year (Asia/Tokyo, UTC+9, no daylight saving since 1951). */
const JAPAN_OFFSET_MS = 9 * 3600_000;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day `YYYY-MM-DD` within YEAR_MIN–YEAR_MAX (2025-02-31 and 2023-02-29 are not). */
export function isCalendarDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < YEAR_MIN || year > YEAR_MAX || month < 1 || month > 12 || day < 1) return false;
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/**
 * A calendar day, `YYYY-MM-DD` (surrounding blanks trimmed), real and within the year range. In a
 * filter it names a Japanese day: turn it into instants with `japanDayStart` only.
 */
export function calendarDay(message: string = MSG.dateInvalid) {
  return z.string({ error: message }).trim().refine(isCalendarDay, message);
}

/**
 * The first instant of a Japanese calendar day (00:00 Asia/Tokyo), or of the day `plusDays` after
 * it: a filter "up to and including day D" is `< japanDayStart(D, 1)`. The one conversion of a
 * filter's day into an instant.
 */
export function japanDayStart(day: string, plusDays = 0): Date {
  const m = DAY.exec(day);
  if (!m) throw new RangeError(`not a calendar day: ${day}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays) - JAPAN_OFFSET_MS);
}

/** The Japanese calendar day (YYYY-MM-DD) an instant falls on. */
export function japanDayOf(at: Date): string {
  return new Date(at.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 10);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
/** Year, month and day of a YYYY-MM-DD day (read without splitting: every row of a list asks). */
function dayParts(day: string): [number, number, number] {
  const a = day.indexOf("-");
  const b = day.indexOf("-", a + 1);
  return [Number(day.slice(0, a)), Number(day.slice(a + 1, b)), Number(day.slice(b + 1))];
}
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * Age in whole years, on the Japanese day `today` falls on, of someone born on `birthday`
 * (YYYY-MM-DD). Born on 29 February: a year older from 1 March in common years.
 */
export function ageOn(birthday: string, today: Date): number {
  const [y, m, d] = dayParts(birthday);
  // The Japanese day's fields read off the shifted instant (a list's every row asks: no string).
  const japan = new Date(today.getTime() + JAPAN_OFFSET_MS);
  const [ty, tm, td] = [japan.getUTCFullYear(), japan.getUTCMonth() + 1, japan.getUTCDate()];
  const beforeBirthday = tm < m || (tm === m && td < d);
  return ty - y - (beforeBirthday ? 1 : 0);
}

/**
 * The latest birthday of someone `years` old on the Japanese day `today` falls on (the inverse of
 * `ageOn`: `ageOn(b, today) >= years` exactly when `b <= yearsBefore(today, years)`); 29 February
 * in a common year is 28 February.
 */
export function yearsBefore(today: Date, years: number): string {
  const [ty, m, d] = dayParts(japanDayOf(today));
  const y = ty - years;
  return `${pad(y, 4)}-${pad(m)}-${pad(m === 2 && d === 29 && !isLeapYear(y) ? 28 : d)}`;
}

/** True for a valid `Date` whose year (UTC) is within YEAR_MIN–YEAR_MAX. */
export function isSaneInstant(at: Date): boolean {
  const t = at.getTime();
  if (Number.isNaN(t)) return false;
  const year = at.getUTCFullYear();
  return year >= YEAR_MIN && year <= YEAR_MAX;
}

const HAS_OFFSET = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** An ISO datetime string's instant; without an offset it is Japan's time. */
export const instantOf = (value: string): Date => new Date(HAS_OFFSET.test(value) ? value : `${value}+09:00`);

const ISO_DATETIME = z.iso.datetime({ offset: true, local: true });

/** True for an ISO 8601 datetime string naming an instant within the year range. */
export function isInstantText(value: string): boolean {
  return ISO_DATETIME.safeParse(value).success && isSaneInstant(instantOf(value));
}

/**
 * An instant written as an ISO 8601 datetime string (`2025-08-21T11:00:00Z`, `…+09:00`; without an
 * offset: Japan time), within the year range, as a `Date`. The form for JSON bodies and queries.
 */
export function instantText(message: string = MSG.instantInvalid) {
  return z.string({ error: message }).trim().refine(isInstantText, message).transform(instantOf);
}

/** An instant as a `Date` (tRPC, superjson) or an ISO datetime string (see `instantText`), within the year range. */
export function instant(message: string = MSG.instantInvalid) {
  return z.union([z.date({ error: message }).refine(isSaneInstant, message), instantText(message)], {
    error: message,
  });
}

/**
 * A day (a Japanese calendar day, the whole day) or an exact instant (an ISO datetime), kept as
 * the string sent, for filters that take both (the admin message list's `dateFrom` / `dateTo`).
 * `rangeStart` / `rangeEnd` turn it into the instants to compare with.
 */
export function dayOrInstant(message: string = MSG.dateInvalid) {
  return z
    .string({ error: message })
    .trim()
    .refine((v) => isCalendarDay(v) || isInstantText(v), message);
}

/** The first instant a day or instant filter includes (a day: its Japanese midnight). */
export const rangeStart = (v: string | Date): Date =>
  v instanceof Date ? v : isCalendarDay(v) ? japanDayStart(v) : instantOf(v);
/** The first instant a day or instant filter no longer includes: a day includes its whole Japanese day, an instant ends there. */
export const rangeEnd = (v: string | Date): Date =>
  typeof v === "string" && isCalendarDay(v) ? japanDayStart(v, 1) : rangeStart(v);

/**
 * The cross-field rule "end not before start" for a pair of optional days or instants, as the
 * arguments of `.refine` on the object holding them: `.refine(...endNotBeforeStart("startDate", "endDate"))`.
 * The issue lands on the end field.
 */
export function endNotBeforeStart<S extends string, E extends string>(
  start: S,
  end: E,
  message: string = MSG.dateRangeInvalid,
) {
  const check = (v: { [K in S | E]?: string | Date | null }) => {
    const a = v[start];
    const b = v[end];
    if (a == null || b == null) return true;
    return rangeStart(a).getTime() <= rangeStart(b).getTime();
  };
  return [check, { message, path: [end] as PropertyKey[] }] as [typeof check, RefineParams];
}

/** The second argument of `.refine` the rules below give. */
type RefineParams = { message: string; path: PropertyKey[] };

/** The largest yen amount any input takes (an order, a purchase limit, a bonus tier). */
export const YEN_MAX = 100_000_000;

/**
 * A yen amount (money): a whole number from `min` (1 unless told) to `max` (YEN_MAX unless told);
 * anything else, a string or NaN or Infinity included, is refused with `message`.
 */
export function money({
  min = 1,
  max = YEN_MAX,
  message = MSG.amountInvalid,
}: {
  min?: number;
  max?: number;
  message?: string;
} = {}) {
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** Rows a list may skip at most ((page − 1) × limit): deep enough for every screen, shallow enough for any database. */
export const MAX_PAGE_OFFSET = 1_000_000;
/** The highest page number any list takes (a page of one row at the deepest offset). */
export const MAX_PAGE = MAX_PAGE_OFFSET + 1;

/** A 1-based page number: a whole number from 1, at most `max` (a larger one: ページ番号が大きすぎます). */
export function pageNumber({ max = MAX_PAGE, message = MSG.badRequest }: { max?: number; message?: string } = {}) {
  return z
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(max, max < MAX_PAGE ? message : MSG.pageTooLarge);
}

/** Rows per page: a whole number from 1 to `max`. */
export function pageSize({ max, message = MSG.badRequest }: { max: number; message?: string }) {
  return z.number({ error: message }).int(message).min(1, message).max(max, message);
}

/** Rows before a 1-based page of `limit` rows: the one offset formula (lists, and the rule below). */
export const pageOffset = (page: number, limit: number): number => (page - 1) * limit;

/** True when the page starts within `maxOffset` rows (MAX_PAGE_OFFSET unless told). */
export const withinOffset = (page: number, limit: number, maxOffset = MAX_PAGE_OFFSET): boolean =>
  pageOffset(page, limit) <= maxOffset;

/**
 * The rule "page × limit stays within a sane offset", as the arguments of `.refine` on the object
 * holding `page` and the page size (`limit` unless `limitKey` names another):
 * `.refine(...pageWithinOffset(20))`, 20 being the size used when the size is absent. A list whose
 * depth costs more (the board's walk) passes a smaller `maxOffset`.
 */
export function pageWithinOffset<L extends string = "limit">(
  defaultLimit: number,
  { limitKey = "limit" as L, maxOffset = MAX_PAGE_OFFSET }: { limitKey?: L; maxOffset?: number } = {},
) {
  const check = (v: { page?: number } & { [K in L]?: number }) =>
    withinOffset(v.page ?? 1, (v[limitKey] as number | undefined) ?? defaultLimit, maxOffset);
  return [check, { message: MSG.pageTooLarge, path: ["page"] as PropertyKey[] }] as [typeof check, RefineParams];
}
