import { LEGAL, MSG } from "@enmusubi/shared";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { rateText } from "../features/payments/calc";
import { CANCELLATION_RULES } from "../features/payments/terms";
import type { LegalInfo } from "../features/payments/types";
import { renderWithProviders } from "../test/render";
import { LegalPage } from "./LegalPage";
import { LEGAL_DOCUMENTS } from "./texts";

const info: LegalInfo = {
  exchange: { yenAmount: 3000, pointAmount: 1000 },
  minimumPurchase: 2000,
  maximumPurchase: 50000,
  methods: { smartPit: true, bankTransfer: false, card: false },
  pointValidityYears: 3,
  freePointValidityDays: 180,
  operator: {
    name: "テスト運営株式会社",
    address: "東京都千代田区千代田1-1",
    phone: "03-0000-0000",
    email: "legal@example.jp",
    datingBusinessNumber: "30120000000",
  },
  pointCosts: [
    { actionName: "profile_view", displayName: "プロフィール閲覧", pointCost: 9 },
    { actionName: "read_mail_view", displayName: "既読メッセージ閲覧", pointCost: 0 },
  ],
  bonuses: { firstPurchase: null, tiers: [], campaigns: [], validityDays: 180 },
};

const doc = (slug: string) => {
  const found = LEGAL_DOCUMENTS.find((d) => d.slug === slug);
  if (!found) throw new Error(slug);
  return found;
};

const pageText = () => document.body.textContent ?? "";

describe("legal pages from legal.info", { timeout: 20_000 }, () => {
  it("特商法: price, limits, the offered methods, timing, cancellation, 7-day rule and the operator come from one source", async () => {
    renderWithProviders(<LegalPage document={doc("transaction-law")} />, { "legal.info": () => info });
    await screen.findByText("販売価格");
    const text = pageText();
    expect(text).toContain(rateText(info.exchange));
    expect(text).toContain("1回のご購入は2,000円から50,000円までです。");
    // Only the method offered today (SmartPit) is named; bank transfer is off, and there is no card provider.
    expect(screen.getByText("コンビニエンスストア払い（スマートピット）")).toBeInTheDocument();
    expect(text).not.toContain("銀行振込");
    expect(text).not.toContain("クレジットカード");
    expect(text).toContain("いずれも前払い");
    expect(text).toContain("コンビニエンスストア払い（スマートピット）：お申込み後に表示される支払番号");
    expect(text).toContain("コンビニエンスストアでの支払手数料");
    expect(text).toContain("商品到着後7日以内");
    for (const rule of CANCELLATION_RULES) expect(text).toContain(rule);
    for (const value of Object.values(info.operator)) expect(text).toContain(value);
    expect(screen.getByText("インターネット異性紹介事業 届出番号")).toBeInTheDocument();
    // The fee table prices points at the same rate: 9pt at 3 yen each.
    expect(text).toContain("9pt（27円相当）");
    // The old contradictory figures are gone.
    expect(text).not.toContain("1ポイントあたり10円");
    expect(text).not.toContain("1,000円で500pt");
    // One set of business hours, stated once.
    expect(screen.getByRole("row", { name: new RegExp(`営業時間 ${LEGAL.businessHours}`) })).toBeInTheDocument();
    expect(text).not.toContain("9:00〜17:00");
    expect(text.split(LEGAL.businessHours)).toHaveLength(2);
  });

  it("特商法 names both methods when both are offered, and says purchases are closed when none is", async () => {
    const both = { ...info, methods: { smartPit: true, bankTransfer: true, card: false } };
    const view = renderWithProviders(<LegalPage document={doc("transaction-law")} />, { "legal.info": () => both });
    await screen.findByText("販売価格");
    expect(screen.getByText("銀行振込")).toBeInTheDocument();
    expect(screen.getByText("コンビニエンスストア払い（スマートピット）")).toBeInTheDocument();
    expect(pageText()).toContain("銀行振込は当事務局が入金を確認した後");
    expect(pageText()).not.toContain("クレジットカード");
    view.unmount();
    const none = { ...info, methods: { smartPit: false, bankTransfer: false, card: false } };
    renderWithProviders(<LegalPage document={doc("transaction-law")} />, { "legal.info": () => none });
    await screen.findByText("販売価格");
    expect(screen.getAllByText("現在、ポイントの新規のお申込みは受け付けておりません。").length).toBeGreaterThan(0);
    for (const word of ["銀行振込", "スマートピット", "クレジットカード"]) expect(pageText()).not.toContain(word);
  });

  it("特商法 lists the card, paid at the order and credited at once, only while it is configured (decision 0046)", async () => {
    const card = { ...info, methods: { smartPit: false, bankTransfer: false, card: true } };
    renderWithProviders(<LegalPage document={doc("transaction-law")} />, { "legal.info": () => card });
    await screen.findByText("販売価格");
    expect(screen.getByText("クレジットカード")).toBeInTheDocument();
    const text = pageText();
    expect(text).toContain("クレジットカード：お申込み時に、決済代行会社の決済ページでお支払いください");
    expect(text).toContain("クレジットカードは決済の完了後ただちに");
    for (const word of ["銀行振込", "スマートピット"]) expect(text).not.toContain(word);
  });

  it("the terms state the same rate sentence and the operator's name", async () => {
    renderWithProviders(<LegalPage document={doc("terms-of-service")} />, { "legal.info": () => info });
    await screen.findByText("第4条（ポイント）");
    expect(pageText()).toContain(`ポイントの販売価格は${rateText(info.exchange)}です。`);
    expect(pageText()).toContain("テスト運営株式会社");
    expect(pageText()).not.toContain("10円相当");
  });

  it("the terms and the privacy policy say that messages, board posts and profile texts are screened and checked", async () => {
    const terms = renderWithProviders(<LegalPage document={doc("terms-of-service")} />, { "legal.info": () => info });
    expect(await screen.findByText("第6条（投稿内容の確認）")).toBeInTheDocument();
    for (const words of [
      "メッセージ、掲示板の投稿、プロフィールの文章",
      "自動で確認",
      "伏せ字",
      "担当者が確認",
      "出会い系サイト規制法",
    ])
      expect(pageText()).toContain(words);
    expect(screen.getByText("第10条（規約の変更）")).toBeInTheDocument();
    expect(pageText()).toContain(`最終更新日：${LEGAL.lastUpdated}`);
    terms.unmount();
    renderWithProviders(<LegalPage document={doc("privacy-policy")} />, { "legal.info": () => info });
    expect(await screen.findByText("3. メッセージ・投稿・プロフィールの確認")).toBeInTheDocument();
    for (const words of ["自動で確認", "担当者が確認", "伏せ字", "出会い系サイト規制法"])
      expect(pageText()).toContain(words);
  });

  it("says the figures could not be read rather than showing stale ones", async () => {
    renderWithProviders(<LegalPage document={doc("transaction-law")} />, {
      "legal.info": () => {
        throw new Error("down");
      },
    });
    expect(await screen.findByText(MSG.purchaseFetchFailed)).toBeInTheDocument();
    expect(pageText()).not.toContain("販売価格");
  });
});
