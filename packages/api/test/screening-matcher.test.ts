import { screeningRules } from "@enmusubi/db";
import { SCREENING_MASK } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { mask, type Rule, RuleSet } from "../src/screening/matcher";
import { contactForm, wordForm } from "../src/screening/normalize";
import { useTestApi } from "./helpers";

const api = useTestApi();
let rules: RuleSet;

beforeAll(async () => {
  // The default rule set exactly as the migration ships it.
  rules = new RuleSet((await api.database.db.select().from(screeningRules)) as Rule[]);
});

const M = SCREENING_MASK;

describe("normalised forms", () => {
  it("the word form folds width, case and kana, and drops what is written between characters", () => {
    expect(wordForm("Ｌ Ｉ Ｎ Ｅ").text).toBe("line");
    expect(wordForm("ら い ん").text).toBe("らいん");
    expect(wordForm("ラ・イ・ン").text).toBe("らいん");
    expect(wordForm("ﾗｲﾝ").text).toBe("らいん");
    expect(wordForm("ﾎﾞｸ").text).toBe("ぼく");
    expect(wordForm("L★I★N★E").text).toBe("line");
  });

  it("the contact form reads digits in every script and the words for @ and .", () => {
    expect(contactForm("０９０−１２３４−５６７８").text).toBe("09012345678");
    expect(contactForm("〇九〇 一二三四 五六七八").text).toBe("09012345678");
    expect(contactForm("ぜろきゅうぜろ いちにさんよん ごろくななはち").text).toBe("09012345678");
    expect(contactForm("abc アット example ドット com").text).toBe("abc@example.com");
    expect(contactForm("いちにち").text).toBe("いちにち");
  });

  it("maps every character back to what was written", () => {
    const form = contactForm("電話 ０９０-１２３４-５６７８ まで");
    const start = form.text.indexOf("0");
    expect(form.from[start]).toBe(3);
    expect(form.to[start + 10]).toBe(16);
  });
});

describe("the default rule set", () => {
  const cases: Array<[string, "mask" | "hold", string, string]> = [
    // [text, action, category, masked result (for mask)]
    ["０９０−１２３４−５６７８に電話して", "mask", "contact", `${M}に電話して`],
    ["090 1234 5678", "mask", "contact", M],
    ["〇九〇一二三四五六七八です", "mask", "contact", `${M}です`],
    ["ぜろきゅうぜろ、いちにさんよん、ごろくななはち", "mask", "contact", M],
    ["mail: taro.yamada@example.com", "mask", "contact", `mail: ${M}`],
    ["taro アット gmail ドット com", "mask", "contact", M],
    ["ｔａｒｏ＠ｅｘａｍｐｌｅ．ｃｏｍ", "mask", "contact", M],
    ["https://example.com/x を見て", "mask", "contact", `${M} を見て`],
    ["LINE: abc123", "mask", "external", M],
    ["ＬＩＮＥやってる？", "mask", "external", `${M}やってる？`],
    ["L I N E 交換しよう", "mask", "external", `${M} 交換しよう`],
    ["ら い んで話そう", "mask", "external", `${M}で話そう`],
    ["カカオID: kkk999", "mask", "external", M],
    ["インスタ見てね", "mask", "external", `${M}見てね`],
    ["QRコード送るね", "mask", "external", `${M}送るね`],
    ["ホ別2でどう？", "hold", "solicitation", ""],
    ["ﾎ別いちご", "hold", "solicitation", ""],
    ["割り切りで会える人", "hold", "solicitation", ""],
    ["え ん こ う", "hold", "solicitation", ""],
    ["パパ活してます", "hold", "solicitation", ""],
    ["ＪＫです", "hold", "minors", ""],
    ["jk2だよ", "hold", "minors", ""],
    ["いま高校生です", "hold", "minors", ""],
    ["中 学 生", "hold", "minors", ""],
    ["１７歳です", "hold", "minors", ""],
  ];
  for (const [text, action, category, masked] of cases) {
    it(`${text} → ${action} (${category})`, () => {
      const screened = rules.screen(text);
      expect(screened.action).toBe(action);
      expect(screened.category).toBe(category);
      if (action === "mask") expect(screened.text).toBe(masked);
    });
  }

  it("the issue's examples: held and masked at once", () => {
    const screened = rules.screen("ホ別2 LINE: abc123");
    expect(screened.action).toBe("hold");
    expect(screened.text).toBe(`ホ別2 ${M}`);
    expect(screened.matches.map((m) => m.category).sort()).toEqual(["external", "external", "solicitation"]);
  });

  it("leaves ordinary Japanese alone", () => {
    for (const text of [
      "はじめまして！週末はカフェ巡りをしています。",
      "2024年12月25日に1,000円のケーキを買いました",
      "身長165cm、体重50kgです。年収は500万円くらい",
      "オンラインゲームが好きです",
      "JCBカードが使えるお店",
      "いちにちよろしくね",
      "高校時代の友達と旅行に行きました",
      "30歳の会社員です。10歳くらい年上の方も歓迎",
      "あっという間に一年が過ぎました",
    ]) {
      expect(rules.screen(text), text).toMatchObject({ action: "pass", text });
    }
  });
});

describe("masking", () => {
  it("merges overlapping spans and keeps the rest unchanged", () => {
    expect(
      mask("abcdefgh", [
        [1, 3],
        [2, 5],
        [6, 7],
      ]),
    ).toBe(`a${M}f${M}h`);
    expect(mask("abc", [])).toBe("abc");
  });

  it("a refuse rule is the strongest, and a word list of a thousand is compiled once", () => {
    const many: Rule[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `w${i}`,
      kind: "word",
      pattern: `ことば${i}`,
      category: "other",
      action: i === 999 ? "refuse" : "mask",
    }));
    const set = new RuleSet(many);
    expect(set.screen("ここに こ と ば 999 がある").action).toBe("refuse");
    expect(set.screen("ことば5だけ")).toMatchObject({ action: "mask", text: `${M}だけ` });
  });
});
