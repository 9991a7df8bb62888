/**
 * One CSV field for a spreadsheet (the members' export, decision 0036): quoted when it holds a
 * comma or a quote; text a spreadsheet could read as a formula (CSV injection) prefixed with an
 * apostrophe. `text = false` marks a number, written as it is (a negative balance stays a number).
 */
export function csvField(value: string | number | null | undefined, text = true): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (text) {
    // Line breaks are replaced, not kept inside a quoted field: the exported values are one-line
    // (names, addresses, e-mail, list labels), and a tool that splits the file at line breaks
    // would otherwise start a line (and a cell) with whatever followed the break.
    s = s.replace(LINE_BREAK, " ");
    if (startsLikeFormula(s)) s = `'${s}`;
  }
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CR LF as one, then every other line break (CR, LF, VT, FF, NEL, U+2028, U+2029). */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/** A control or format character first (tab, zero-width space / joiners, BOM, word joiner, direction marks). */
const INVISIBLE_FIRST = /^[\p{Cc}\p{Cf}]/u;
/** White space and format characters a spreadsheet may trim before reading the cell. */
const LEADING_BLANKS = /^[\s\p{Cf}]+/u;

/**
 * Whether a spreadsheet might read the cell as a formula: it starts with an invisible character,
 * or its first visible character is = + - @ in any width (NFKC folds ＝ ＋ － ＠ and the small
 * forms ﹦ ﹢ ﹣ ﹫ to them), behind any white space (a full-width space too).
 */
function startsLikeFormula(s: string): boolean {
  if (INVISIBLE_FIRST.test(s)) return true;
  const first = s.replace(LEADING_BLANKS, "").codePointAt(0);
  return first !== undefined && "=+-@".includes(String.fromCodePoint(first).normalize("NFKC").charAt(0));
}
