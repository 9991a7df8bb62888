/**
 * CODE128 encoder (ISO/IEC 15417), drawn by the app itself so no payment code ever leaves for an
 * external image service. Digit strings are packed two per symbol in code set C (a leading odd
 * digit goes in code set B first); anything else uses code set B (printable ASCII).
 */

/** Bar/space widths in modules for symbol values 0–106 (public-domain symbology table). */
const PATTERNS = [
  "212222",
  "222122",
  "222221",
  "121223",
  "121322",
  "131222",
  "122213",
  "122312",
  "132212",
  "221213",
  "221312",
  "231212",
  "112232",
  "122132",
  "122231",
  "113222",
  "123122",
  "123221",
  "223211",
  "221132",
  "221231",
  "213212",
  "223112",
  "312131",
  "311222",
  "321122",
  "321221",
  "312212",
  "322112",
  "322211",
  "212123",
  "212321",
  "232121",
  "111323",
  "131123",
  "131321",
  "112313",
  "132113",
  "132311",
  "211313",
  "231113",
  "231311",
  "112133",
  "112331",
  "132131",
  "113123",
  "113321",
  "133121",
  "313121",
  "211331",
  "231131",
  "213113",
  "213311",
  "213131",
  "311123",
  "311321",
  "331121",
  "312113",
  "312311",
  "332111",
  "314111",
  "221411",
  "431111",
  "111224",
  "111422",
  "121124",
  "121421",
  "141122",
  "141221",
  "112214",
  "112412",
  "122114",
  "122411",
  "142112",
  "142211",
  "241211",
  "221114",
  "413111",
  "241112",
  "134111",
  "111242",
  "121142",
  "121241",
  "114212",
  "124112",
  "124211",
  "411212",
  "421112",
  "421211",
  "212141",
  "214121",
  "412121",
  "111143",
  "111341",
  "131141",
  "114113",
  "114311",
  "411113",
  "411311",
  "113141",
  "114131",
  "311141",
  "411131",
  "211412",
  "211214",
  "211232",
  "2331112",
] as const;

export const CODE_C = 99;
export const START_B = 104;
export const START_C = 105;
export const STOP = 106;

/** Symbol values, start to checksum (the stop is added by `code128Widths`). */
export function code128Values(text: string): number[] {
  if (text.length === 0) throw new RangeError("empty barcode value");
  const values: number[] = [];
  if (/^\d+$/.test(text)) {
    let rest = text;
    if (rest.length % 2 === 1) {
      // One digit in set B, then the pairs in set C.
      values.push(START_B, rest.charCodeAt(0) - 32, CODE_C);
      rest = rest.slice(1);
    } else {
      values.push(START_C);
    }
    for (let i = 0; i < rest.length; i += 2) values.push(Number(rest.slice(i, i + 2)));
  } else {
    values.push(START_B);
    for (const char of text) {
      const code = char.charCodeAt(0);
      if (char.length !== 1 || code < 32 || code > 126) throw new RangeError(`not encodable in CODE128 B: ${char}`);
      values.push(code - 32);
    }
  }
  const checksum = values.reduce((sum, value, i) => sum + value * Math.max(i, 1), 0) % 103;
  values.push(checksum);
  return values;
}

/** Alternating bar and space widths (bar first) of the whole symbol, stop included. */
export function code128Widths(text: string): number[] {
  return [...code128Values(text), STOP].flatMap((value) => [...(PATTERNS[value] as string)].map(Number));
}

export interface Bar {
  x: number;
  width: number;
}

/** The dark bars as module offsets and widths, and the total width in modules (no quiet zone). */
export function code128Bars(text: string): { bars: Bar[]; modules: number } {
  const bars: Bar[] = [];
  let x = 0;
  code128Widths(text).forEach((width, i) => {
    if (i % 2 === 0) bars.push({ x, width });
    x += width;
  });
  return { bars, modules: x };
}

export const CODE128_PATTERNS: readonly string[] = PATTERNS;
