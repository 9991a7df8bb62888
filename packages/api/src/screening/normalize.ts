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
 * and a text repeats its characters: each distinct one is folded once per process. Bounded: past
 * FOLD_CACHE_MAX distinct characters the cache starts again.
 */
const foldCache = new Map<string, Folded>();
const FOLD_CACHE_MAX = 20_000;

function fold(ch: string): Folded {
  let out = foldCache.get(ch);
  if (out) return out;
  const code = ch.charCodeAt(0);
  const f = code < 0x80 ? ch.toLowerCase() : toHiragana(ch.normalize("NFKC").toLowerCase());
  out = [];
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
  if (foldCache.size >= FOLD_CACHE_MAX) foldCache.clear();
  foldCache.set(ch, out);
  return out;
}

class FormBuilder {
  private parts: string[] = [];
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
const DIGIT_SEPARATORS = new Set("-‐‑‒–—―−ー~〜～.・･()/,、_*#+|\\:");
const isSeparator = (ch: string | undefined) => ch !== undefined && DIGIT_SEPARATORS.has(ch);

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

const KANA_DIGIT_STARTS = new Set(KANA_DIGITS.map(([word]) => word[0]));
const WORD_STARTS = new Set([...AT_WORDS, ...DOT_WORDS].map((w) => w[0]));

/** The length of the kana digit word at `at`, and its digit, or null. */
function kanaDigitAt(text: string, at: number): [number, string] | null {
  if (!KANA_DIGIT_STARTS.has(text[at])) return null;
  for (const [word, digit] of KANA_DIGITS) if (text.startsWith(word, at)) return [word.length, digit];
  return null;
}

/**
 * The contact form's output: separators with a digit on both sides (over other separators) are
 * dropped as the digit after them arrives (「090-1234」 is 「0901234」).
 */
class ContactBuilder extends FormBuilder {
  /** Separators at the end of the output, and whether a digit comes before them. */
  private separators = 0;
  private digitBefore = false;
  private lastIsDigit = false;

  override push(ch: string, from: number, to: number) {
    if (isDigit(ch)) {
      if (this.separators > 0 && this.digitBefore) this.truncate(this.separators);
      this.separators = 0;
      this.lastIsDigit = true;
    } else if (isSeparator(ch)) {
      if (this.separators === 0) this.digitBefore = this.lastIsDigit;
      this.separators += 1;
      this.lastIsDigit = false;
    } else {
      this.separators = 0;
      this.lastIsDigit = false;
    }
    super.push(ch, from, to);
  }
}

/** The contact form of `original` (see the top of this file). */
export function contactForm(original: string): Form {
  const base = spacedOut(original);
  const { text } = base;
  const out = new ContactBuilder();
  const span = (start: number, end: number): [number, number] => [
    base.from[start] as number,
    base.to[end - 1] as number,
  ];
  let i = 0;
  while (i < text.length) {
    const maybe = WORD_STARTS.has(text[i]);
    const at = maybe ? AT_WORDS.find((w) => text.startsWith(w, i)) : undefined;
    const dot = maybe && !at ? DOT_WORDS.find((w) => text.startsWith(w, i)) : undefined;
    const word = at ?? dot;
    if (word) {
      out.push(at ? "@" : ".", ...span(i, i + word.length));
      i += word.length;
      continue;
    }
    // A run of kana digit words long enough to be a number.
    if (KANA_DIGIT_STARTS.has(text[i])) {
      const run: Array<[number, string]> = [];
      for (let j = i, d = kanaDigitAt(text, j); d; j += d[0], d = kanaDigitAt(text, j)) run.push(d);
      if (run.length >= KANA_RUN_MIN) {
        for (const [length, digit] of run) {
          out.push(digit, ...span(i, i + length));
          i += length;
        }
        continue;
      }
    }
    const ch = text[i] as string;
    out.push(KANJI_DIGITS[ch] ?? ch, base.from[i] as number, base.to[i] as number);
    i += 1;
  }
  return out.build();
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}
