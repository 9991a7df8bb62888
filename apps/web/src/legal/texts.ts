import { ID_IMAGE_RETENTION_HOURS, LEGAL, POINT_COST_TABLE, POINT_EXPIRY_NOTICE_DAYS } from "@enmusubi/shared";
import { bonusNotes, bonusRuleSentences } from "../features/payments/bonus-text";
import { rateText, yenValueOf } from "../features/payments/calc";
import {
  CANCELLATION_RULES,
  FORFEIT_ON_WITHDRAWAL,
  freeValidityText,
  priceText,
  validityText,
} from "../features/payments/terms";
import type { LegalInfo } from "../features/payments/types";
import { formatCost, formatPoints } from "../lib/format";
import { type LegalBlock, list, p } from "./blocks";
import { creditTimingBlocks, extraChargesText, paymentMethodBlocks, paymentTimingBlocks } from "./payment-texts";

/**
 * The four legal documents (spec §2, §9). Every price, rate, limit, payment method, fee and
 * operator detail comes from `legal.info` (the payment settings, the point-cost table and the
 * operator configuration), so no page can state a figure another page or the purchase screen
 * contradicts: a payment method appears only while it is offered (decision 0043). The fixed facts of
 * spec §9 (retention, late damages, the one set of business hours) stay constants.
 */
export type { LegalBlock } from "./blocks";

export interface LegalSection {
  heading: string;
  blocks: LegalBlock[];
}

export interface LegalDocument {
  slug: "age-verification" | "terms-of-service" | "transaction-law" | "privacy-policy";
  title: string;
  sections: (info: LegalInfo) => LegalSection[];
}

const LEGAL_FEE_ORDER = new Map(POINT_COST_TABLE.map((row, i) => [row.actionName, i]));
const LEGAL_CAP = new Map(POINT_COST_TABLE.map((row) => [row.actionName, row.initialFee]));

/**
 * The fee table: today's cost of each action (the point-cost table), its yen value at today's
 * rate, and the initial fee of the legal table, which a cost may never exceed.
 */
function feeTable(info: LegalInfo): LegalBlock {
  const rows = [...info.pointCosts].sort(
    (a, b) => (LEGAL_FEE_ORDER.get(a.actionName) ?? 1e6) - (LEGAL_FEE_ORDER.get(b.actionName) ?? 1e6),
  );
  const cost = (points: number) =>
    points === 0 ? "無料" : `${formatPoints(points)}（${yenValueOf(points, info.exchange)}相当）`;
  return {
    kind: "table",
    label: "消費ポイント一覧",
    head: ["機能", "消費ポイント", "上限（初期設定）"],
    rows: rows.map((row) => {
      const cap = LEGAL_CAP.get(row.actionName);
      return [row.displayName, cost(row.pointCost), cap === undefined ? "—" : formatCost(cap)];
    }),
  };
}

/**
 * The purchase bonuses (decision 0047): the rules in force and the campaigns announced, from the
 * rows the credit reads (`legal.info` → `bonuses`), worded as the purchase screen words them.
 */
function bonusBlocks(info: LegalInfo): LegalBlock[] {
  const notes = bonusNotes(info.bonuses);
  return [list(bonusRuleSentences(info.bonuses)), ...(notes.length > 0 ? [list(notes)] : [])];
}

const verificationSteps = list(
  [
    "利用規約に同意し、アカウントを作成します。",
    "本人確認の方法（運転免許証・マイナンバーカード（表面のみ）・パスポート・健康保険証など）を選びます。",
    "生年月日が確認できる身分証の画像をアップロードします。生年月日・氏名以外の情報（本籍地・個人番号・記号番号など）は隠して撮影してください。",
    "内容を確認して申請を送信します。",
    `運営事務局が審査します。審査は通常${ID_IMAGE_RETENTION_HOURS}時間以内に完了します。`,
    "審査が完了するとお知らせが届き、すべての機能をご利用いただけます。",
  ],
  true,
);

export const LEGAL_DOCUMENTS: LegalDocument[] = [
  {
    slug: "age-verification",
    title: "年齢確認について",
    sections: (info) => [
      {
        heading: "18歳未満の方はご利用いただけません",
        blocks: [
          p(
            "「インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律」に基づき、本サービスは18歳未満の方および高校生の方（18歳以上であっても在学中の方を含みます）はご利用いただけません。",
          ),
          p("年齢確認が完了するまで、メッセージの送受信など一部の機能はご利用いただけません。"),
        ],
      },
      { heading: "年齢確認の手順", blocks: [verificationSteps] },
      {
        heading: "身分証画像の取り扱い",
        blocks: [
          p(
            `お送りいただいた身分証の画像は年齢確認のためだけに使用し、確認完了後${ID_IMAGE_RETENTION_HOURS}時間以内に削除します。第三者に提供することはありません。`,
          ),
          p(
            "画像が不鮮明な場合、生年月日が確認できない場合、または提出内容に不備がある場合は審査が完了しません。その場合はお手数ですが、もう一度最初から申請をやり直してください。",
          ),
        ],
      },
      {
        heading: "お問い合わせ",
        blocks: [
          p(`年齢確認に関するお問い合わせは ${info.operator.email}（受付 ${LEGAL.businessHours}）までご連絡ください。`),
        ],
      },
    ],
  },
  {
    slug: "terms-of-service",
    title: "利用規約",
    sections: (info) => [
      {
        heading: "第1条（適用）",
        blocks: [
          p(
            `本規約は、${info.operator.name}（以下「当事務局」）が提供するマッチングサービス「縁結び」（以下「本サービス」）の利用条件を定めるものです。会員は本規約に同意のうえ本サービスを利用するものとします。`,
          ),
        ],
      },
      {
        heading: "第2条（利用資格）",
        blocks: [
          list([
            "本サービスは18歳以上の方のみ利用できます。18歳以上であっても高校生の方は利用できません。",
            "会員は年齢確認（身分証による本人確認）を完了する必要があります。年齢確認が完了するまで一部の機能は制限されます。",
            "既婚者の方、営業・勧誘・宗教・政治活動を目的とする方は利用できません。",
          ]),
        ],
      },
      {
        heading: "第3条（アカウント）",
        blocks: [
          list([
            "ユーザーIDとパスワードは登録メールアドレスにお送りします。会員は自己の責任でこれらを管理し、第三者に利用させてはなりません。",
            "以前のシステムで発行されたユーザーIDは利用できません。移行を希望する方はお問い合わせください。",
          ]),
        ],
      },
      {
        heading: "第4条（ポイント）",
        blocks: [
          list([
            "本サービスの有料機能はポイントを消費して利用します。ポイントは前払い式で、お支払いの確認後にご利用いただけます。",
            `ポイントの販売価格は${rateText(info.exchange)}です。`,
            validityText(info.pointValidityYears),
            freeValidityText(info.freePointValidityDays),
            `ポイントは有効期限の近いものから消費されます。有効期限の${POINT_EXPIRY_NOTICE_DAYS}日前に、登録メールアドレスへお知らせします。`,
            "各機能の消費ポイントは以下のとおりです。当事務局は消費ポイントを変更することがありますが、上限（初期設定）を上回ることはありません。",
          ]),
          feeTable(info),
          list([...CANCELLATION_RULES, "ポイントを他の会員に譲渡・売買することはできません。"]),
        ],
      },
      {
        heading: "第4条の2（購入ボーナス）",
        blocks: bonusBlocks(info),
      },
      {
        heading: "第5条（禁止事項）",
        blocks: [
          list([
            "18歳未満の者を誘引する行為、またはそのおそれのある行為",
            "虚偽の情報を登録する行為、他人になりすます行為",
            "わいせつな表現、暴力的な表現、差別的な表現を送信・投稿する行為",
            "金銭の要求、営業・勧誘、外部サービスへの誘導",
            "他の会員への嫌がらせ、つきまとい、個人情報の無断公開",
            "本サービスの運営を妨げる行為、不正アクセス",
          ]),
        ],
      },
      {
        heading: "第6条（投稿内容の確認）",
        blocks: [
          list([
            "会員の安全と「インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律」（出会い系サイト規制法）の遵守のため、会員が送信・投稿・登録するメッセージ、掲示板の投稿、プロフィールの文章（ニックネーム・自己紹介など）およびプロフィール写真を、システムにより自動で確認し、当事務局の担当者が確認します。会員は本規約への同意により、これに同意するものとします。",
            "自動の確認により、メールアドレス・電話番号などの連絡先や禁止された表現は伏せ字にされることがあり、一部の内容は当事務局の担当者が確認するまで相手に届かず、公開されないことがあります。",
            "確認の結果、本規約に反する内容は、相手に届けず、または公開を取りやめることがあります。確認のために知り得た内容は、安全の確保と法令の遵守のためにのみ使用します。",
          ]),
        ],
      },
      {
        heading: "第7条（利用停止・退会）",
        blocks: [
          p(
            "当事務局は、会員が本規約に違反した場合、事前の通知なく投稿の削除、利用停止または退会処分を行うことがあります。この場合、未使用のポイントは払い戻しません。",
          ),
          p(
            "会員は、設定画面からパスワードを入力していつでも退会できます。退会後はログインできず、他の会員からプロフィールや投稿は見えなくなり、送信済みのメッセージの送信者は「退会したユーザー」と表示されます。",
          ),
          p(FORFEIT_ON_WITHDRAWAL),
          p(
            `アカウント情報は退会後${LEGAL.accountRetentionYears}年間保存した後に削除し、メッセージ・ポイントの利用履歴は${LEGAL.usageHistoryRetentionYears}年間保存します（プライバシーポリシー）。同じメールアドレスで新たに登録することができます。`,
          ),
        ],
      },
      {
        heading: "第8条（遅延損害金）",
        blocks: [
          p(
            `会員が当事務局に対する金銭債務の支払いを遅延した場合、年${LEGAL.lateDamagesPercentPerYear}%の割合による遅延損害金を支払うものとします。`,
          ),
        ],
      },
      {
        heading: "第9条（免責）",
        blocks: [
          p(
            "当事務局は会員間のやり取りに起因するトラブルについて、当事務局に故意または重大な過失がある場合を除き責任を負いません。会員間のトラブルは当事者間で解決するものとします。",
          ),
        ],
      },
      {
        heading: "第10条（規約の変更）",
        blocks: [
          p("当事務局は必要に応じて本規約を変更できます。変更後の規約は本ページに掲載した時点から効力を生じます。"),
          p(
            "内容に重要な変更がある場合は、会員がログインしたときに変更点をお知らせし、改めて同意をいただきます。同意いただくまで会員向けの画面はご利用いただけません。",
          ),
        ],
      },
    ],
  },
  {
    slug: "transaction-law",
    title: "特定商取引法に基づく表記",
    sections: (info) => [
      {
        heading: "販売事業者",
        blocks: [
          {
            kind: "table",
            label: "販売事業者",
            head: ["項目", "内容"],
            rows: [
              ["販売事業者", info.operator.name],
              ["所在地", info.operator.address],
              ["電話番号", info.operator.phone],
              ["メールアドレス", info.operator.email],
              ["インターネット異性紹介事業 届出番号", info.operator.datingBusinessNumber],
              ["営業時間", LEGAL.businessHours],
            ],
          },
        ],
      },
      {
        heading: "販売価格",
        blocks: [
          p(priceText(info.exchange, info)),
          p("各機能の消費ポイントは次のとおりです。上限（初期設定）を上回ることはありません。"),
          feeTable(info),
        ],
      },
      {
        heading: "購入特典（ボーナスポイント）",
        blocks: bonusBlocks(info),
      },
      {
        heading: "商品代金以外の必要料金",
        blocks: [p(extraChargesText(info.methods))],
      },
      {
        heading: "支払方法",
        blocks: paymentMethodBlocks(info.methods),
      },
      {
        heading: "支払時期",
        blocks: paymentTimingBlocks(info.methods),
      },
      {
        heading: "ポイントの引渡時期",
        blocks: creditTimingBlocks(info.methods),
      },
      {
        heading: "ポイントの有効期限",
        blocks: [
          p(validityText(info.pointValidityYears)),
          p(freeValidityText(info.freePointValidityDays)),
          p(FORFEIT_ON_WITHDRAWAL),
        ],
      },
      {
        heading: "返品・キャンセル",
        blocks: [
          list([
            ...CANCELLATION_RULES,
            `物品を販売する場合、不良品に限り、商品到着後${LEGAL.defectiveExchangeDays}日以内にご連絡いただいたときは交換いたします。`,
          ]),
        ],
      },
      {
        heading: "動作環境",
        blocks: [p("最新版の Google Chrome、Safari、Microsoft Edge、Firefox でご利用ください。")],
      },
    ],
  },
  {
    slug: "privacy-policy",
    title: "プライバシーポリシー",
    sections: (info) => [
      {
        heading: "1. 取得する情報",
        blocks: [
          list([
            "登録情報：メールアドレス、性別、ニックネーム、生年月日、居住地（都道府県）、職業、年収、プロフィール写真",
            "年齢確認のための身分証画像",
            "利用履歴：メッセージ、掲示板への投稿、ポイントの購入・利用履歴、お問い合わせ内容",
            "確認の記録：自動の確認で伏せ字にした箇所や保留にした内容、担当者による確認の結果",
            "アクセス情報：IPアドレス、ブラウザの種類、アクセス日時",
          ]),
        ],
      },
      {
        heading: "2. 利用目的",
        blocks: [
          list([
            "本サービスの提供、本人確認・年齢確認",
            "ポイントの購入・利用の管理、お問い合わせへの対応",
            "不正利用の防止、利用規約違反への対応",
            "会員の安全の確保と出会い系サイト規制法の遵守のための、メッセージ・掲示板の投稿・プロフィールの文章と写真の確認",
            "法令に基づく対応",
          ]),
        ],
      },
      {
        heading: "3. メッセージ・投稿・プロフィールの確認",
        blocks: [
          p(
            "会員の安全と出会い系サイト規制法の遵守のため、会員間のメッセージ、掲示板の投稿、プロフィールの文章（ニックネーム・自己紹介など）と写真を、システムにより自動で確認し、当事務局の担当者が確認します（利用規約第6条）。連絡先などは伏せ字にされることがあり、一部の内容は担当者が確認するまで相手に届かず、公開されないことがあります。確認で知り得た内容は、この目的と法令に基づく対応のためにのみ使用し、確認は業務上必要な担当者に限って行います。",
          ),
        ],
      },
      {
        heading: "4. 写真の位置情報",
        blocks: [
          p(
            "アップロードされた写真は、撮影場所の位置情報（GPS）などのメタデータをすべて取り除いてから保存します。他の会員に位置情報が伝わることはありません。",
          ),
        ],
      },
      {
        heading: "5. 保存期間",
        blocks: [
          list([
            `身分証画像：年齢確認の完了後${ID_IMAGE_RETENTION_HOURS}時間以内に削除します。`,
            `アカウント情報：退会後${LEGAL.accountRetentionYears}年間保存し、その後削除します。`,
            `メッセージ・ポイントの利用履歴：${LEGAL.usageHistoryRetentionYears}年間保存します。`,
          ]),
        ],
      },
      {
        heading: "6. 第三者提供",
        blocks: [p("法令に基づく場合を除き、ご本人の同意なく個人情報を第三者に提供することはありません。")],
      },
      {
        heading: "7. 安全管理",
        blocks: [
          p(
            "パスワードは復元できない形式（ハッシュ）で保存し、通信は暗号化します。個人情報へのアクセスは業務上必要な担当者に限ります。",
          ),
        ],
      },
      {
        heading: "8. 開示・訂正・削除の請求",
        blocks: [
          p(
            `ご本人からの開示・訂正・利用停止・削除のご請求は ${info.operator.email}（受付 ${LEGAL.businessHours}）までご連絡ください。`,
          ),
        ],
      },
    ],
  },
];
