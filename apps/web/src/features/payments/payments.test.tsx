import { MSG, purchaseAboveMaximum, purchaseBelowMinimum } from "@enmusubi/shared";
import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { theme } from "../../theme";
import { Barcode } from "./Barcode";
import { amountError, displayRate, pointsFor, rateText, yenValueOf } from "./calc";
import { CODE128_PATTERNS, code128Bars, code128Values, code128Widths, START_B, START_C, STOP } from "./code128";
import { STATUS_LABELS, StatusBadge } from "./StatusBadge";

/** Reads a symbol run back into values with the table (a scanner's first step). */
function decode(widths: number[]): number[] {
  const values: number[] = [];
  for (let i = 0; i < widths.length - 7; i += 6) values.push(CODE128_PATTERNS.indexOf(widths.slice(i, i + 6).join("")));
  return values;
}

describe("CODE128", () => {
  it("has 107 distinct symbols of 11 modules (the stop 13), each starting with a bar and ending with a space", () => {
    expect(CODE128_PATTERNS).toHaveLength(107);
    expect(new Set(CODE128_PATTERNS).size).toBe(107);
    CODE128_PATTERNS.forEach((p, value) => {
      const sum = [...p].reduce((a, c) => a + Number(c), 0);
      expect(sum, `symbol ${value}`).toBe(value === STOP ? 13 : 11);
    });
  });

  it("packs an even digit string in code set C with the mod-103 checksum", () => {
    // 105 + 12·1 + 34·2 + 56·3 + 78·4 = 665; 665 mod 103 = 47
    expect(code128Values("12345678")).toEqual([START_C, 12, 34, 56, 78, 47]);
  });

  it("puts the first digit of an odd digit string in set B, then switches to C", () => {
    // 104 + 17·1 ('1') + 99·2 (CODE C) + 23·3 + 45·4 = 568; 568 mod 103 = 53
    expect(code128Values("12345")).toEqual([START_B, 17, 99, 23, 45, 53]);
  });

  it("uses code set B for text and refuses what it cannot encode", () => {
    // 104 + 33·1 ('A') + 34·2 ('B') = 205; 205 mod 103 = 102
    expect(code128Values("AB")).toEqual([START_B, 33, 34, 102]);
    expect(() => code128Values("支払")).toThrow(RangeError);
    expect(() => code128Values("")).toThrow(RangeError);
  });

  it("lays out bars that a reader decodes back to the same symbols, quiet zone excluded", () => {
    const widths = code128Widths("SP-20261123");
    expect(decode(widths)).toEqual(code128Values("SP-20261123"));
    expect(widths.slice(-7).join("")).toBe("2331112");
    const { bars, modules } = code128Bars("SP-20261123");
    expect(modules).toBe(code128Values("SP-20261123").length * 11 + 13);
    expect(bars.length).toBe((widths.length + 1) / 2);
  });
});

describe("Barcode", () => {
  it("draws an SVG of bars named with the code it carries", () => {
    render(
      <MantineProvider theme={theme}>
        <Barcode value="123456789012" label="支払番号 123456789012 のバーコード" />
      </MantineProvider>,
    );
    const svg = screen.getByRole("img", { name: "支払番号 123456789012 のバーコード：123456789012" });
    expect(svg.tagName.toLowerCase()).toBe("svg");
    expect(svg.querySelectorAll("rect[data-bar]").length).toBe(code128Bars("123456789012").bars.length);
    expect(svg.querySelectorAll("rect[data-bar]").length).toBeGreaterThan(20);
  });
});

describe("purchase arithmetic", () => {
  it("floors the points (spec §5) without floating-point loss", () => {
    const rate = { yenAmount: 1000, pointAmount: 500 };
    expect(pointsFor(1000, rate)).toBe(500);
    expect(pointsFor(1999, rate)).toBe(999);
    expect(pointsFor(1001, rate)).toBe(500);
    // 3000 / (1000 / 300) is 899.999… in floating point; the exact answer is 900.
    expect(pointsFor(3000, { yenAmount: 1000, pointAmount: 300 })).toBe(900);
    expect(pointsFor(1000, { yenAmount: 1000, pointAmount: 300 })).toBe(300);
    expect(pointsFor(0, rate)).toBe(0);
    expect(pointsFor(Number.NaN, rate)).toBe(0);
  });

  it("shows the rate as points ÷ yen to 4 decimals and one sentence of price", () => {
    expect(displayRate({ yenAmount: 1000, pointAmount: 500 })).toBe("0.5000");
    expect(displayRate({ yenAmount: 3000, pointAmount: 1000 })).toBe("0.3333");
    expect(rateText({ yenAmount: 1000, pointAmount: 500 })).toBe("1,000円（税込）で500pt（1ポイントあたり2円）");
    expect(rateText({ yenAmount: 1000, pointAmount: 300 })).toBe("1,000円（税込）で300pt（1ポイントあたり約3.33円）");
    expect(yenValueOf(15, { yenAmount: 1000, pointAmount: 500 })).toBe("30円");
  });

  it("answers the catalogue's messages for a bad, a too small and a too large amount", () => {
    const limits = { minimumPurchase: 1000, maximumPurchase: 100000 };
    expect(amountError("", limits)).toBe(MSG.amountInvalid);
    expect(amountError(-5, limits)).toBe(MSG.amountInvalid);
    expect(amountError(1000.5, limits)).toBe(MSG.amountInvalid);
    expect(amountError(999, limits)).toBe(purchaseBelowMinimum(1000));
    expect(amountError(100001, limits)).toBe(purchaseAboveMaximum(100000));
    expect(amountError(1000, limits)).toBeNull();
    expect(amountError(100000, limits)).toBeNull();
  });
});

describe("StatusBadge", () => {
  it("says 処理中 for pending and names the other states", () => {
    expect(STATUS_LABELS).toEqual({
      pending: "処理中",
      paid: "支払済",
      cancelled: "キャンセル",
      failed: "失敗",
      refunded: "返金済",
    });
    render(
      <MantineProvider theme={theme}>
        <StatusBadge status="pending" />
      </MantineProvider>,
    );
    expect(screen.getByText("処理中")).toBeInTheDocument();
  });
});
