import type { ScreeningMatchRecord } from "@enmusubi/db";
import { SCREENING_MASK, type ScreeningAction, type ScreeningCategory, type ScreeningRuleKind } from "@enmusubi/shared";
import { contactForm, type Form, wordForm } from "./normalize";

/*
 * Matching a text against the rules (docs/decisions/0042). Word rules are found in the word form
 * (normalize.ts) by their first character: one pass over the text, each position comparing only
 * the words that start with its character, so a thousand words cost about what a few do. Pattern
 * rules are regular expressions run on the contact form. Every match maps back to the span of
 * what was written, which a mask replaces.
 */

export interface Rule {
  id: string;
  kind: ScreeningRuleKind;
  pattern: string;
  category: ScreeningCategory;
  action: ScreeningAction;
}

interface WordRule extends Rule {
  /** The word in the word form. */
  word: string;
  /** All ASCII letters and digits: a match must not sit inside a longer ASCII word (「online」 is not 「line」). */
  ascii: boolean;
}

interface PatternRule extends Rule {
  regexp: RegExp;
}

/** What screening decided for one text. */
export interface Screened {
  /** The strongest action of the matching rules, or `pass`. */
  action: ScreeningAction | "pass";
  /** The text to store and deliver: masked where a mask rule matched. */
  text: string;
  /** Every matching rule, once, in the order found. */
  matches: ScreeningMatchRecord[];
  /** The category of the first rule with the strongest action (what a refusal names). */
  category: ScreeningCategory | null;
}

const STRENGTH: Record<ScreeningAction | "pass", number> = { pass: 0, mask: 1, hold: 2, refuse: 3 };

/** The stronger of two actions. */
export const stronger = <A extends ScreeningAction | "pass">(a: A, b: A): A => (STRENGTH[b] > STRENGTH[a] ? b : a);

const ASCII_WORD = /^[a-z0-9]+$/;
const isAsciiLetter = (ch: string | undefined) => ch !== undefined && ch >= "a" && ch <= "z";

/** The word a word rule looks for (its pattern in the word form); empty when it has no letter or digit. */
export const wordOf = (pattern: string) => wordForm(pattern).text;

/** A compiled set of rules; build it once per change of the rules (rules.ts caches it). */
export class RuleSet {
  private readonly words = new Map<string, WordRule[]>();
  private readonly patterns: PatternRule[] = [];
  readonly size: number;

  constructor(rules: Rule[]) {
    for (const rule of rules) {
      if (rule.kind === "word") {
        const word = wordOf(rule.pattern);
        const first = word[0];
        if (!first) continue;
        const bucket = this.words.get(first) ?? [];
        bucket.push({ ...rule, word, ascii: ASCII_WORD.test(word) });
        this.words.set(first, bucket);
      } else {
        try {
          this.patterns.push({ ...rule, regexp: new RegExp(rule.pattern, "gu") });
        } catch {
          // The schema refuses an invalid pattern; one that slipped in some other way matches nothing.
        }
      }
    }
    // Longer words first: the longest match at a position is the one masked.
    for (const bucket of this.words.values()) bucket.sort((a, b) => b.word.length - a.word.length);
    this.size = rules.length;
  }

  /** Screens `original`: which rules match, the strongest action, and the masked text. */
  screen(original: string): Screened {
    const spans: Array<[number, number]> = [];
    const found = new Map<string, ScreeningMatchRecord>();
    let action: ScreeningAction | "pass" = "pass";
    let category: ScreeningCategory | null = null;
    const hit = (rule: Rule, form: Form, start: number, end: number) => {
      const from = form.from[start] as number;
      const to = form.to[end - 1] as number;
      // Only a mask rule masks: what a hold rule matched is judged by an administrator as written.
      if (rule.action === "mask") spans.push([from, to]);
      if (found.has(rule.id)) return;
      found.set(rule.id, {
        ruleId: rule.id,
        category: rule.category,
        action: rule.action,
        excerpt: original.slice(from, to),
      });
      if (STRENGTH[rule.action] > STRENGTH[action]) {
        action = rule.action;
        category = rule.category;
      }
    };
    if (this.words.size > 0) this.findWords(original, hit);
    if (this.patterns.length > 0) {
      const form = contactForm(original);
      for (const rule of this.patterns) {
        rule.regexp.lastIndex = 0;
        for (const m of form.text.matchAll(rule.regexp)) {
          if (m[0].length > 0) hit(rule, form, m.index, m.index + m[0].length);
        }
      }
    }
    return { action, category, matches: [...found.values()], text: mask(original, spans) };
  }

  private findWords(original: string, hit: (rule: Rule, form: Form, start: number, end: number) => void) {
    const form = wordForm(original);
    const { text } = form;
    for (let i = 0; i < text.length; i += 1) {
      const bucket = this.words.get(text[i] as string);
      if (!bucket) continue;
      for (const rule of bucket) {
        if (!text.startsWith(rule.word, i)) continue;
        const end = i + rule.word.length;
        if (rule.ascii && !standsAlone(original, form, i, end)) continue;
        hit(rule, form, i, end);
      }
    }
  }
}

/**
 * Whether the ASCII word at `start`–`end` of the word form stands alone in what was written: the
 * characters just before and after it there are not ASCII letters (「L I N E: abc」, 「ＬＩＮＥやってる」
 * and 「JK2」 match; 「online」 and 「lines」 do not).
 */
function standsAlone(original: string, form: Form, start: number, end: number): boolean {
  const from = form.from[start] as number;
  const to = form.to[end - 1] as number;
  const before = original
    .slice(Math.max(0, from - 2), from)
    .normalize("NFKC")
    .toLowerCase()
    .at(-1);
  const after = original
    .slice(to, to + 2)
    .normalize("NFKC")
    .toLowerCase()[0];
  return !isAsciiLetter(before) && !isAsciiLetter(after);
}

/** `original` with each of `spans` (merged where they meet) replaced by SCREENING_MASK. */
export function mask(original: string, spans: Array<[number, number]>): string {
  if (spans.length === 0) return original;
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = "";
  let at = 0;
  let open: [number, number] | null = null;
  for (const [from, to] of spans) {
    if (open && from <= open[1]) {
      open[1] = Math.max(open[1], to);
      continue;
    }
    if (open) {
      out += original.slice(at, open[0]) + SCREENING_MASK;
      at = open[1];
    }
    open = [from, to];
  }
  if (open) out += original.slice(at, open[0]) + SCREENING_MASK;
  return out + original.slice(open ? open[1] : at);
}

/** A RuleSet with no rules: screening passes everything (no rule enabled). */
export const NO_RULES = new RuleSet([]);
