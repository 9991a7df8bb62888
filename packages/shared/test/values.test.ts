import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ageOn,
  birthday,
  calendarDay,
  dayOrInstant,
  endNotBeforeStart,
  instant,
  instantText,
  japanDayOf,
  japanDayStart,
  MAX_PAGE_OFFSET,
  MSG,
  pageNumber,
  pageOffset,
  pageSize,
  pageWithinOffset,
  rangeEnd,
  rangeStart,
  yearsBefore,
} from "../src/index";

const message = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues[0]?.message;

describe("calendarDay", () => {
  it("takes real days within the year range only", () => {
    for (const ok of ["2024-02-29", "2025-12-31", "1900-01-01", "2999-12-31", " 2025-01-01 "]) {
      expect(calendarDay().safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of [
      "2025-02-31",
      "2023-02-29",
      "0000-01-01",
      "1899-12-31",
      "3000-01-01",
      "2025-13-01",
      "2025-00-10",
      "2025-1-1",
      "20250101",
      "2025-01-01T00:00:00Z",
      "",
      20250101,
      null,
    ]) {
      const r = calendarDay().safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(message(r)).toBe(MSG.dateInvalid);
    }
  });

  it("is the one day check: the birthday refuses what calendarDay refuses, with its own wording", () => {
    for (const bad of ["2025-02-31", "2023-02-29", "1899-12-31", "2000-1-1", "2000-01-01T00:00:00Z"]) {
      expect(message(birthday.safeParse(bad)), bad).toBe(MSG.birthdayInvalid);
    }
    expect(birthday.safeParse("2000-02-29").success).toBe(true);
  });

  it("agrees with the calendar on every day of 1999–2001 and 2099–2101, impossible days included", () => {
    for (const year of [1999, 2000, 2001, 2099, 2100, 2101]) {
      for (let month = 1; month <= 12; month += 1) {
        for (let day = 1; day <= 31; day += 1) {
          const text = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
          const real = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
          expect(calendarDay().safeParse(text).success, text).toBe(real);
        }
      }
    }
  });

  it("keeps a domain's own wording", () => {
    expect(message(calendarDay(MSG.boardDateInvalid).safeParse("2025-02-31"))).toBe(MSG.boardDateInvalid);
  });
});

describe("japanDayStart", () => {
  it("is midnight in Tokyo, not UTC", () => {
    expect(japanDayStart("2025-08-20").toISOString()).toBe("2025-08-19T15:00:00.000Z");
    expect(japanDayStart("2025-12-31", 1).toISOString()).toBe("2025-12-31T15:00:00.000Z");
    expect(japanDayOf(new Date("2025-08-19T15:30:00Z"))).toBe("2025-08-20");
  });
});

describe("ageOn / yearsBefore: ages on the Japanese day", () => {
  it("counts a birthday from Japanese midnight, not UTC midnight", () => {
    // 2026-04-01 00:30 in Tokyo is still 31 March in UTC: born 2008-04-01, the member is 18.
    const jstMidnight = new Date("2026-04-01T00:30:00+09:00");
    expect(ageOn("2008-04-01", jstMidnight)).toBe(18);
    expect(yearsBefore(jstMidnight, 18)).toBe("2008-04-01");
    expect(birthday.safeParse("2008-04-01").success).toBe(true);
    // One minute before Japanese midnight: still 17.
    const before = new Date("2026-03-31T23:59:00+09:00");
    expect(ageOn("2008-04-01", before)).toBe(17);
    expect(yearsBefore(before, 18)).toBe("2008-03-31");
  });

  it("are inverses on every Japanese day of 2023–2025, 29 February included", () => {
    const births = ["2004-02-29", "2005-02-28", "2005-03-01", "2006-12-31", "2007-01-01", "2007-06-15"];
    for (
      let t = Date.parse("2023-01-01T00:00:00+09:00");
      t < Date.parse("2026-01-01T00:00:00+09:00");
      t += 86_400_000
    ) {
      // Each Japanese day at 00:00 and at 23:59 (a different UTC day): the same answers.
      for (const today of [new Date(t), new Date(t + 86_340_000)]) {
        for (const years of [18, 19, 20]) {
          const latest = yearsBefore(today, years);
          expect(calendarDay().safeParse(latest).success, latest).toBe(true);
          for (const b of births) expect(ageOn(b, today) >= years, `${b} ${today.toISOString()}`).toBe(b <= latest);
        }
      }
    }
  });
});

describe("instant", () => {
  it("takes ISO datetimes and Dates within the year range, as Dates", () => {
    expect(instantText().parse("2025-08-21T11:00:00Z").toISOString()).toBe("2025-08-21T11:00:00.000Z");
    expect(instantText().parse("2025-08-21T20:00:00+09:00").toISOString()).toBe("2025-08-21T11:00:00.000Z");
    // Without an offset: Japan time.
    expect(instantText().parse("2025-08-21T20:00:00").toISOString()).toBe("2025-08-21T11:00:00.000Z");
    expect(instant().parse(new Date("2025-08-21T11:00:00Z")).toISOString()).toBe("2025-08-21T11:00:00.000Z");
  });

  it("refuses year 0, far futures, invalid dates and non-dates", () => {
    for (const bad of [
      "0000-01-01T00:00:00Z",
      "9999-12-31T23:59:59Z",
      "2025-02-31T00:00:00Z",
      "2025-08-21",
      "tomorrow",
      new Date("0000-01-01T00:00:00Z"),
      new Date(-8.64e15),
      new Date(Number.NaN),
      12,
    ]) {
      const r = instant().safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(message(r)).toBe(MSG.instantInvalid);
    }
  });

  it("dayOrInstant keeps the string; rangeStart / rangeEnd read a day as the whole Japanese day", () => {
    expect(dayOrInstant().parse("2025-08-21")).toBe("2025-08-21");
    expect(dayOrInstant().parse("2025-08-21T00:00:00Z")).toBe("2025-08-21T00:00:00Z");
    for (const bad of ["0000-01-01", "2025-02-31", "0000-01-01T00:00:00Z", "2025-08-21junk"]) {
      expect(dayOrInstant().safeParse(bad).success, bad).toBe(false);
    }
    expect(rangeStart("2025-08-21").toISOString()).toBe("2025-08-20T15:00:00.000Z");
    expect(rangeEnd("2025-08-21").toISOString()).toBe("2025-08-21T15:00:00.000Z");
    expect(rangeStart("2025-08-21T09:00:00").toISOString()).toBe("2025-08-21T00:00:00.000Z");
  });
});

describe("endNotBeforeStart", () => {
  const range = z
    .object({ from: dayOrInstant().optional(), to: dayOrInstant().optional() })
    .refine(...endNotBeforeStart("from", "to"));
  it("refuses an end before its start, on the end field", () => {
    expect(range.safeParse({ from: "2025-03-01", to: "2025-03-01" }).success).toBe(true);
    expect(range.safeParse({ from: "2025-03-01", to: "2025-03-01T12:00:00+09:00" }).success).toBe(true);
    expect(range.safeParse({ from: "2025-03-01" }).success).toBe(true);
    const r = range.safeParse({ from: "2025-03-02", to: "2025-03-01" });
    expect(message(r)).toBe(MSG.dateRangeInvalid);
    expect(r.error?.issues[0]?.path).toEqual(["to"]);
  });
});

describe("pages", () => {
  it("pageOffset: rows before a 1-based page", () => {
    expect(pageOffset(1, 20)).toBe(0);
    expect(pageOffset(3, 25)).toBe(50);
  });

  const list = z
    .object({ page: pageNumber().default(1), limit: pageSize({ max: 10_000 }).default(20) })
    .refine(...pageWithinOffset(20));
  it("bounds page × limit", () => {
    expect(list.safeParse({ page: 2, limit: 10_000 }).success).toBe(true);
    expect(list.safeParse({ page: MAX_PAGE_OFFSET / 20 + 1 }).success).toBe(true);
    expect(message(list.safeParse({ page: MAX_PAGE_OFFSET / 20 + 2 }))).toBe(MSG.pageTooLarge);
    expect(message(list.safeParse({ page: 1e15, limit: 10_000 }))).toBe(MSG.pageTooLarge);
    for (const bad of [0, -1, 1.5, "1", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(list.safeParse({ page: bad }).success, String(bad)).toBe(false);
    }
  });
});
