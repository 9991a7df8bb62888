import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
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
  pageSize,
  pageWithinOffset,
  rangeEnd,
  rangeStart,
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
