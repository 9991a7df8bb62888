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

/** One written character as the forms see it: NFKC, lower case, hiragana. ASCII takes the short way. */
function fold(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch;
  return toHiragana(ch.normalize("NFKC").toLowerCase());
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
const SPACE = /[\s\p{Cf}]/u;

class FormBuilder {
  text = "";
  from: number[] = [];
  to: number[] = [];

  push(s: string, from: number, to: number) {
    for (let i = 0; i < s.length; i += 1) {
      this.from.push(from);
      this.to.push(to);
    }
    this.text += s;
  }

  /** A combining mark (a half-width 濁点 after NFKC) joins the character before it. */
  attach(mark: string, to: number): boolean {
    const last = this.text.length - 1;
    if (last < 0) return false;
    const joined = (this.text[last] + mark).normalize("NFC");
    if (joined.length !== 1) return false;
    this.text = this.text.slice(0, last) + joined;
    this.to[last] = to;
    return true;
  }

  build(): Form {
    return { text: this.text, from: this.from, to: this.to };
  }
}

/** Each folded character of `original` with its span, in order (a character may fold to several). */
function* folded(original: string): Generator<[string, number, number]> {
  let i = 0;
  while (i < original.length) {
    const cp = original.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    yield [fold(original.slice(i, i + width)), i, i + width];
    i += width;
  }
}

/** The word form of `original`: letters and digits only, folded. */
export function wordForm(original: string): Form {
  const out = new FormBuilder();
  for (const [f, from, to] of folded(original)) {
    for (const ch of f) {
      if (MARK.test(ch)) {
        out.attach(ch, to);
      } else if (LETTER_OR_DIGIT.test(ch)) {
        out.push(ch, from, to);
      }
    }
  }
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

/** Written between digits of a number (hyphens, dashes, long marks, dots, brackets, slashes…). */
const DIGIT_SEPARATOR = /^[-‐‑‒–—―−ー~〜～.・･()（）/／,，、_*＊#＃+＋|｜\\:：]$/u;

/** Characters folded but white space dropped: the start of the contact form. */
function spacedOut(original: string): Form {
  const out = new FormBuilder();
  for (const [f, from, to] of folded(original)) {
    for (const ch of f) {
      if (MARK.test(ch)) {
        if (!out.attach(ch, to)) out.push(ch, from, to);
      } else if (!SPACE.test(ch)) {
        out.push(ch, from, to);
      }
    }
  }
  return out.build();
}

/** The length of the kana digit word at `at`, and its digit, or null. */
function kanaDigitAt(text: string, at: number): [number, string] | null {
  for (const [word, digit] of KANA_DIGITS) if (text.startsWith(word, at)) return [word.length, digit];
  return null;
}

/** The contact form of `original` (see the top of this file). */
export function contactForm(original: string): Form {
  const base = spacedOut(original);
  const { text } = base;
  const out = new FormBuilder();
  const span = (start: number, end: number): [number, number] => [
    base.from[start] as number,
    base.to[end - 1] as number,
  ];
  let i = 0;
  while (i < text.length) {
    const at = AT_WORDS.find((w) => text.startsWith(w, i));
    const dot = at ? undefined : DOT_WORDS.find((w) => text.startsWith(w, i));
    const word = at ?? dot;
    if (word) {
      out.push(at ? "@" : ".", ...span(i, i + word.length));
      i += word.length;
      continue;
    }
    // A run of kana digit words long enough to be a number.
    const run: Array<[number, string]> = [];
    for (let j = i, d = kanaDigitAt(text, j); d; j += d[0], d = kanaDigitAt(text, j)) run.push(d);
    if (run.length >= KANA_RUN_MIN) {
      for (const [length, digit] of run) {
        out.push(digit, ...span(i, i + length));
        i += length;
      }
      continue;
    }
    const ch = text[i] as string;
    out.push(KANJI_DIGITS[ch] ?? ch, ...span(i, i + 1));
    i += 1;
  }
  return dropSeparatorsBetweenDigits(out.build());
}

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";

/** Separators with a digit on both sides (over other separators) are dropped: 「090-1234」 is 「0901234」. */
function dropSeparatorsBetweenDigits(form: Form): Form {
  const { text } = form;
  const out = new FormBuilder();
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (DIGIT_SEPARATOR.test(ch) && isDigit(text[i - 1])) {
      let j = i;
      while (j < text.length && DIGIT_SEPARATOR.test(text[j] as string)) j += 1;
      if (isDigit(text[j])) {
        i = j;
        continue;
      }
    }
    out.push(ch, form.from[i] as number, form.to[i] as number);
    i += 1;
  }
  return out.build();
}
