/*
 * The texts screening compares (docs/decisions/0042). A member who wants to slip a contact
 * detail past a word list writes it in full-width letters, in katakana, with spaces or symbols
 * between the characters, or spells the digits in kanji or kana. Two forms of the text undo that,
 * each character remembering where it came from in what was written, so a match can be masked
 * there and nowhere else:
 *
 * - the word form: NFKC, lower case, katakana as hiragana, and nothing but letters and digits
 *   (spaces, dots, symbols and emoji between the characters are dropped): 「Ｌ Ｉ Ｎ Ｅ」「ら・い・ん」
 *   become 「line」「らいん」. Word rules are looked for in it.
 * - the contact form: the same folding, white space dropped but symbols kept (an address needs its
 *   「@」 and 「.」), 「あっと」「(at)」 read as 「@」 and 「どっと」「(dot)」 as 「.」, kanji digits and
 *   runs of kana digit words (「ぜろきゅうぜろ」) as digits, and the separators between two digits
 *   dropped (「０９０−１２３４−５６７８」 is 「09012345678」). Pattern rules run on it.
 */

/** A normalised text and, for each of its UTF-16 units, the span of the original it stands for. */
export interface Form {
  text: string;
  from: number[];
  to: number[];
}

const KATAKANA = /[\u30a1-\u30f6]/g;
const toHiragana = (s: string) => s.replace(KATAKANA, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/**
 * What a folded character is to the forms: a letter or a digit (kept by both); a combining mark
 * (a half-width 濁点 after NFKC: joins the character before it); white space or an invisible format
 * character (dropped by both); anything else — punctuation, symbols, emoji (dropped by the word
 * form, kept by the contact form).
 */
const LETTER = 0;
const MARK_KIND = 1;
const SPACE_KIND = 2;
const SYMBOL = 3;
type Kind = typeof LETTER | typeof MARK_KIND | typeof SPACE_KIND | typeof SYMBOL;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const SPACE = /[\s\p{Cf}]/u;

/** One written character folded (NFKC, lower case, hiragana) into characters with their kinds. */
type Folded = Array<[string, Kind]>;

/**
 * Folding is the costly part of screening (NFKC and three Unicode property tests per character),
 * and a text repeats its characters: each distinct one is folded once per process, kept by its
 * UTF-16 code for the Basic Multilingual Plane (an array lookup) and in a bounded map beyond it.
 */
const foldBmp: Array<Folded | undefined> = new Array(0x10000);
const foldAstral = new Map<string, Folded>();
const FOLD_ASTRAL_MAX = 10_000;

function foldNew(ch: string): Folded {
  const code = ch.charCodeAt(0);
  const f = code < 0x80 ? ch.toLowerCase() : toHiragana(ch.normalize("NFKC").toLowerCase());
  const out: Folded = [];
  for (const c of f) {
    const kind: Kind = LETTER_OR_DIGIT.test(c)
      ? LETTER
      : MARK.test(c)
        ? MARK_KIND
        : SPACE.test(c)
          ? SPACE_KIND
          : SYMBOL;
    out.push([c, kind]);
  }
  return out;
}

function fold(ch: string): Folded {
  if (ch.length === 1) {
    const code = ch.charCodeAt(0);
    let out = foldBmp[code];
    if (!out) {
      out = foldNew(ch);
      foldBmp[code] = out;
    }
    return out;
  }
  let out = foldAstral.get(ch);
  if (!out) {
    out = foldNew(ch);
    if (foldAstral.size >= FOLD_ASTRAL_MAX) foldAstral.clear();
    foldAstral.set(ch, out);
  }
  return out;
}

class FormBuilder {
  protected parts: string[] = [];
  from: number[] = [];
  to: number[] = [];

  push(s: string, from: number, to: number) {
    for (let i = 0; i < s.length; i += 1) {
      this.parts.push(s[i] as string);
      this.from.push(from);
      this.to.push(to);
    }
  }

  /** A combining mark joins the character before it when they compose into one; answers whether it did. */
  attach(mark: string, to: number): boolean {
    const last = this.parts.length - 1;
    if (last < 0) return false;
    const joined = (this.parts[last] + mark).normalize("NFC");
    if (joined.length !== 1) return false;
    this.parts[last] = joined;
    this.to[last] = to;
    return true;
  }

  /** Drops the last `n` characters. */
  protected truncate(n: number) {
    this.parts.length -= n;
    this.from.length -= n;
    this.to.length -= n;
  }

  build(): Form {
    return { text: this.parts.join(""), from: this.from, to: this.to };
  }
}

/** Each written character of `original`, folded, with its span (`visit` is called once per folded character). */
function eachFolded(original: string, visit: (ch: string, kind: Kind, from: number, to: number) => void) {
  let i = 0;
  while (i < original.length) {
    const code = original.charCodeAt(i);
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < original.length ? 2 : 1;
    for (const [c, kind] of fold(width === 1 ? (original[i] as string) : original.slice(i, i + 2)))
      visit(c, kind, i, i + width);
    i += width;
  }
}

/** The word form of `original`: letters and digits only, folded. */
export function wordForm(original: string): Form {
  const out = new FormBuilder();
  eachFolded(original, (ch, kind, from, to) => {
    if (kind === LETTER) out.push(ch, from, to);
    else if (kind === MARK_KIND) out.attach(ch, to);
  });
  return out.build();
}

const KANJI_DIGITS: Record<string, string> = {
  〇: "0",
  零: "0",
  一: "1",
  二: "2",
  三: "3",
  四: "4",
  五: "5",
  六: "6",
  七: "7",
  八: "8",
  九: "9",
};

/** Kana digit words, longest first where one starts another. 「し」「く」 are left out: too common. */
const KANA_DIGITS: Array<[string, string]> = [
  ["きゅう", "9"],
  ["きゅー", "9"],
  ["ぜろ", "0"],
  ["れい", "0"],
  ["いち", "1"],
  ["さん", "3"],
  ["よん", "4"],
  ["ろく", "6"],
  ["なな", "7"],
  ["しち", "7"],
  ["はち", "8"],
  ["に", "2"],
  ["ご", "5"],
];
/** A run of kana digit words this long is a number spelled out; shorter ones are ordinary words (「いちに」). */
const KANA_RUN_MIN = 3;

const AT_WORDS = ["あっと", "(at)", "[at]", "（at）"];
const DOT_WORDS = ["どっと", "(dot)", "[dot]", "（dot）"];

/** Written between digits of a number (hyphens, dashes, long marks, dots, brackets, slashes…), folded. */
const DIGIT_SEPARATORS = "-‐‑‒–—―−ー~〜～.・･()/,、_*#+|\\:";

/** Characters folded but white space dropped: the start of the contact form. */
function spacedOut(original: string): Form {
  const out = new FormBuilder();
  eachFolded(original, (ch, kind, from, to) => {
    if (kind === MARK_KIND) {
      if (!out.attach(ch, to)) out.push(ch, from, to);
    } else if (kind !== SPACE_KIND) {
      out.push(ch, from, to);
    }
  });
  return out.build();
}

/** Kana digit words by their first character (common hiragana start them: looked up, not searched). */
const KANA_DIGITS_BY_START = new Map<string, Array<[string, string]>>();
for (const entry of KANA_DIGITS) {
  const first = entry[0][0] as string;
  KANA_DIGITS_BY_START.set(first, [...(KANA_DIGITS_BY_START.get(first) ?? []), entry]);
}

/** The kana digit word at `at` ([word, digit]), or undefined. */
function kanaDigitAt(text: string, at: number): [string, string] | undefined {
  const candidates = KANA_DIGITS_BY_START.get(text[at] as string);
  if (!candidates) return undefined;
  for (const entry of candidates) if (text.startsWith(entry[0], at)) return entry;
  return undefined;
}

/** How many kana digit words follow one another from `at`, counting up to KANA_RUN_MIN. */
function kanaRunFrom(text: string, at: number): number {
  let n = 0;
  for (let j = at, d = kanaDigitAt(text, j); d && n < KANA_RUN_MIN; d = kanaDigitAt(text, j)) {
    n += 1;
    j += d[0].length;
  }
  return n;
}

/**
 * What each UTF-16 unit may be to the contact form, looked up once per character (screening runs
 * on every send, and Set or object lookups per character were most of its cost).
 */
const WORD_START = 1;
const KANA_START = 2;
const KANJI_DIGIT = 4;
const SEPARATOR = 8;
const FLAGS = new Uint8Array(0x10000);
const flagOf = (code: number): number => FLAGS[code] ?? 0;
const mark = (chars: Iterable<string>, flag: number) => {
  for (const c of chars) FLAGS[c.charCodeAt(0)] = flagOf(c.charCodeAt(0)) | flag;
};
mark([...AT_WORDS, ...DOT_WORDS], WORD_START);
mark(
  KANA_DIGITS.map(([w]) => w),
  KANA_START,
);
mark(Object.keys(KANJI_DIGITS), KANJI_DIGIT);
mark(DIGIT_SEPARATORS, SEPARATOR);

const isDigitCode = (code: number) => code >= 48 && code <= 57;

/**
 * The contact form's output: separators with a digit on both sides (over other separators) are
 * dropped as the digit after them arrives (「090-1234」 is 「0901234」).
 */
class ContactBuilder extends FormBuilder {
  /** Separators at the end of the output, and whether a digit comes before them. */
  private separators = 0;
  private digitBefore = false;
  private lastIsDigit = false;

  /** One character (`ch` is a single UTF-16 unit). */
  add(ch: string, from: number, to: number) {
    const code = ch.charCodeAt(0);
    if (isDigitCode(code)) {
      if (this.separators > 0 && this.digitBefore) this.truncate(this.separators);
      this.separators = 0;
      this.lastIsDigit = true;
    } else if (flagOf(code) & SEPARATOR) {
      if (this.separators === 0) this.digitBefore = this.lastIsDigit;
      this.separators += 1;
      this.lastIsDigit = false;
    } else {
      this.separators = 0;
      this.lastIsDigit = false;
    }
    this.parts.push(ch);
    this.from.push(from);
    this.to.push(to);
  }
}

/** The contact form of `original` (see the top of this file). */
export function contactForm(original: string): Form {
  const base = spacedOut(original);
  const { text } = base;
  const out = new ContactBuilder();
  let i = 0;
  while (i < text.length) {
    const flags = flagOf(text.charCodeAt(i));
    if (flags & WORD_START) {
      const at = AT_WORDS.find((w) => text.startsWith(w, i));
      const word = at ?? DOT_WORDS.find((w) => text.startsWith(w, i));
      if (word) {
        out.add(at ? "@" : ".", base.from[i] as number, base.to[i + word.length - 1] as number);
        i += word.length;
        continue;
      }
    }
    // A run of kana digit words long enough to be a number.
    if (flags & KANA_START && kanaRunFrom(text, i) >= KANA_RUN_MIN) {
      for (let d = kanaDigitAt(text, i); d; d = kanaDigitAt(text, i)) {
        out.add(d[1], base.from[i] as number, base.to[i + d[0].length - 1] as number);
        i += d[0].length;
      }
      continue;
    }
    const ch = text[i] as string;
    out.add(flags & KANJI_DIGIT ? (KANJI_DIGITS[ch] as string) : ch, base.from[i] as number, base.to[i] as number);
    i += 1;
  }
  return out.build();
}
