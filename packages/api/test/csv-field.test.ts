import { describe, expect, it } from "vitest";
import { csvField } from "../src/lists/csv";

/** A CSV field as a spreadsheet reads it: guarded text starts with an apostrophe. */
describe("csvField: CSV injection guard", () => {
  it("guards the half-width formula starters, as before", () => {
    for (const s of ["=1+1", "+81", "-5", "@SUM(A1)", "\t=1", "\r=1"]) expect(csvField(s)).toMatch(/^"?'/);
    expect(csvField("佐藤花子")).toBe("佐藤花子");
    expect(csvField("a-b=c")).toBe("a-b=c");
  });

  it("guards full-width and small-form ＝ ＋ － ＠ (NFKC reads them as = + - @)", () => {
    for (const s of ['＝HYPERLINK("x")', "＋81", "－5", "＠SUM(A1)", "﹦1+1", "﹢1", "﹣1", "﹫x"]) {
      expect(csvField(s)).toBe(s.includes('"') ? `"'${s.replace(/"/g, '""')}"` : `'${s}`);
    }
  });

  it("guards a cell starting with an invisible character (zero-width, BOM, word joiner, direction marks)", () => {
    for (const invisible of ["\u200B", "\u200C", "\u200D", "\uFEFF", "\u2060", "\u200E", "\u202E", "\u00AD"]) {
      expect(csvField(`${invisible}=1+1`)).toBe(`'${invisible}=1+1`);
      expect(csvField(`${invisible}佐藤`)).toBe(`'${invisible}佐藤`);
    }
  });

  it("guards a formula behind leading white space (a full-width space too)", () => {
    expect(csvField(" =1+1")).toBe("' =1+1");
    expect(csvField("\u3000＝1+1")).toBe("'\u3000＝1+1");
    expect(csvField(" 佐藤")).toBe(" 佐藤");
  });

  it("puts no line break in a cell: each becomes a space, so no line of the file starts with the rest", () => {
    for (const br of ["\n", "\r\n", "\r", "\u2028", "\u2029", "\u0085", "\v", "\f"]) {
      const cell = csvField(`佐藤${br}=HYPERLINK("x")`);
      expect(cell).toBe('"佐藤 =HYPERLINK(""x"")"');
      expect(cell).not.toMatch(/[\r\n\u2028\u2029\u0085\v\f]/);
    }
    expect(csvField("a\n\nb")).toBe("a  b");
    expect(csvField("\n=1+1")).toBe("' =1+1");
  });

  it("leaves numbers as they are and quotes commas and quotes", () => {
    expect(csvField(-5, false)).toBe("-5");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('高橋, "次郎"')).toBe('"高橋, ""次郎"""');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField("")).toBe("");
  });
});
