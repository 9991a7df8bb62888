import { isCalendarDay } from "@enmusubi/shared";
import type { DatesProviderSettings } from "@mantine/dates";
import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat";
import "dayjs/locale/ja";

dayjs.extend(customParseFormat);

/** Date pickers in Japanese (spec §9 "Dates shown in Japanese locale"): 日曜始まり, 年/月/日. */
export const DATES_SETTINGS: Partial<DatesProviderSettings> = { locale: "ja", firstDayOfWeek: 0, weekendDays: [0, 6] };

export { JAPANESE_CALENDAR } from "./calendar";

/** How a picked date is shown in an input: 1995年4月1日. */
export const JAPANESE_DATE_FORMAT = "YYYY年M月D日";

const TYPED_DATE = /^(\d{4})\s*[年./-]\s*(\d{1,2})\s*[月./-]\s*(\d{1,2})\s*日?$|^(\d{4})(\d{2})(\d{2})$/;

/**
 * A typed date (1995年4月1日, 1995-04-01, 1995/4/1, 19950401, also in full-width digits) as the
 * `YYYY-MM-DD` the server takes, or null while it is not (yet) a real date.
 */
export function parseTypedDate(input: string): string | null {
  const text = input.trim().replace(/[０-９／－．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  const match = TYPED_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = (match[1] ? match.slice(1, 4) : match.slice(4, 7)).map(Number) as [number, number, number];
  const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  // The server's own day check (real days, years 1900–2999), so the picker never holds a day the API refuses.
  return isCalendarDay(iso) ? iso : null;
}
