import {
  EXCHANGE_RATE_DEFAULT,
  LEGAL,
  POINT_COST_TABLE,
  POINT_VALIDITY_YEARS,
  PURCHASE_LIMIT_DEFAULTS,
  YEN_PER_POINT,
} from "@enmusubi/shared";

/**
 * The four legal documents (spec §2, §9), written from the facts the spec gives: 1 pt = 10 yen,
 * points valid 3 years, the initial fee table ("never higher"), bank transfer and SmartPit, support
 * hours, retention periods, refunds, late damages and the identity-verification steps.
 */
export type LegalBlock =
  | { kind: "p"; text: string }
  | { kind: "list"; items: string[]; ordered?: boolean }
  | { kind: "table"; head: [string, string]; rows: [string, string][] };

export interface LegalSection {
  heading: string;
  blocks: LegalBlock[];
}

export interface LegalDocument {
  slug: "age-verification" | "terms-of-service" | "transaction-law" | "privacy-policy";
  title: string;
  sections: LegalSection[];
}

const p = (text: string): LegalBlock => ({ kind: "p", text });
const list = (items: string[], ordered = false): LegalBlock => ({ kind: "list", items, ordered });
const yen = (n: number) => `${n.toLocaleString("ja-JP")}円`;

const feeTable: LegalBlock = {
  kind: "table",
  head: ["機能", "消費ポイント（初期設定・上限）"],
  rows: POINT_COST_TABLE.map((row) => [
    row.displayName,
    row.initialFee === 0 ? "無料" : `${row.initialFee}pt（${yen(row.initialFee * YEN_PER_POINT)}相当）`,
  ]),
};

const verificationSteps = list(
  [
    "利用規約に同意し、アカウントを作成します。",
    "本人確認の方法（運転免許証・マイナンバーカード（表面のみ）・パスポート・健康保険証など）を選びます。",
    "生年月日が確認できる身分証の画像をアップロードします。生年月日・氏名以外の情報（本籍地・個人番号・記号番号など）は隠して撮影してください。",
    "内容を確認して申請を送信します。",
    "運営事務局が審査します。審査は通常24時間以内に完了します。",
    "審査が完了するとお知らせが届き、すべての機能をご利用いただけます。",
  ],
  true,
);

export const LEGAL_DOCUMENTS: LegalDocument[] = [
  {
    slug: "age-verification",
    title: "年齢確認について",
    sections: [
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
            `お送りいただいた身分証の画像は年齢確認のためだけに使用し、確認完了後${LEGAL.idImageDeletionHours}時間以内に削除します。第三者に提供することはありません。`,
          ),
          p(
            "画像が不鮮明な場合、生年月日が確認できない場合、または提出内容に不備がある場合は審査が完了しません。その場合はお手数ですが、もう一度最初から申請をやり直してください。",
          ),
        ],
      },
      {
        heading: "お問い合わせ",
        blocks: [
          p(
            `年齢確認に関するお問い合わせは ${LEGAL.supportEmail}（受付 ${LEGAL.supportReception}）までご連絡ください。`,
          ),
        ],
      },
    ],
  },
  {
    slug: "terms-of-service",
    title: "利用規約",
    sections: [
      {
        heading: "第1条（適用）",
        blocks: [
          p(
            `本規約は、${LEGAL.operatorName}（以下「当事務局」）が提供するマッチングサービス「縁結び」（以下「本サービス」）の利用条件を定めるものです。会員は本規約に同意のうえ本サービスを利用するものとします。`,
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
            `本サービスの有料機能はポイントを消費して利用します。1ポイントは${YEN_PER_POINT}円相当です。ポイントは前払い式で、購入後にご利用いただけます。`,
            `ポイントの有効期限は購入日から${POINT_VALIDITY_YEARS}年間です。期限を過ぎたポイントは失効します。`,
            "各機能の消費ポイントは以下のとおりです。当事務局は消費ポイントを変更することがありますが、以下の初期設定を上回ることはありません。",
          ]),
          feeTable,
          list([
            "ポイントの購入後の払い戻しはできません。ただし、法令に定めがある場合および当事務局の責めに帰すべき事由による場合を除きます。",
            "ポイントを他の会員に譲渡・売買することはできません。",
          ]),
        ],
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
        heading: "第6条（利用停止・退会）",
        blocks: [
          p(
            "当事務局は、会員が本規約に違反した場合、事前の通知なく投稿の削除、利用停止または退会処分を行うことがあります。この場合、未使用のポイントは払い戻しません。",
          ),
        ],
      },
      {
        heading: "第7条（遅延損害金）",
        blocks: [
          p(
            `会員が当事務局に対する金銭債務の支払いを遅延した場合、年${LEGAL.lateDamagesPercentPerYear}%の割合による遅延損害金を支払うものとします。`,
          ),
        ],
      },
      {
        heading: "第8条（免責）",
        blocks: [
          p(
            "当事務局は会員間のやり取りに起因するトラブルについて、当事務局に故意または重大な過失がある場合を除き責任を負いません。会員間のトラブルは当事者間で解決するものとします。",
          ),
        ],
      },
      {
        heading: "第9条（規約の変更）",
        blocks: [
          p("当事務局は必要に応じて本規約を変更できます。変更後の規約は本ページに掲載した時点から効力を生じます。"),
        ],
      },
    ],
  },
  {
    slug: "transaction-law",
    title: "特定商取引法に基づく表記",
    sections: [
      {
        heading: "販売事業者",
        blocks: [
          {
            kind: "table",
            head: ["項目", "内容"],
            rows: [
              ["販売事業者", LEGAL.operatorName],
              ["運営責任者・所在地・電話番号", "ご請求をいただいた場合、遅滞なく開示いたします。"],
              ["メールアドレス", LEGAL.supportEmail],
              ["お問い合わせ受付", LEGAL.supportReception],
              ["営業時間", LEGAL.businessHours],
            ],
          },
        ],
      },
      {
        heading: "販売価格",
        blocks: [
          p(
            `ポイントの販売価格は1ポイントあたり${YEN_PER_POINT}円（税込）です。標準の交換レートは${yen(EXCHANGE_RATE_DEFAULT.yenAmount)}で${EXCHANGE_RATE_DEFAULT.pointAmount}ポイントです。1回の購入額は${yen(PURCHASE_LIMIT_DEFAULTS.minimumPurchase)}から${yen(PURCHASE_LIMIT_DEFAULTS.maximumPurchase)}までです。`,
          ),
          p("各機能の消費ポイント（初期設定）は次のとおりです。これを上回ることはありません。"),
          feeTable,
        ],
      },
      {
        heading: "商品代金以外の必要料金",
        blocks: [
          p(
            "インターネット接続料金・通信料金、銀行振込手数料、コンビニエンスストアでの支払手数料はお客様のご負担となります。",
          ),
        ],
      },
      {
        heading: "支払方法",
        blocks: [list(["銀行振込", "スマートピット（コンビニエンスストア払い）"])],
      },
      {
        heading: "支払時期・ポイントの付与時期",
        blocks: [
          list([
            "銀行振込：入金を当事務局が確認した後にポイントを付与します。",
            "スマートピット：購入申込後に表示される支払番号・バーコードでお支払いください。お支払いの確認後にポイントを付与します。",
          ]),
        ],
      },
      {
        heading: "ポイントの有効期限",
        blocks: [p(`購入日から${POINT_VALIDITY_YEARS}年間です。`)],
      },
      {
        heading: "返品・キャンセル",
        blocks: [
          p("ポイントはデジタルコンテンツの性質上、購入後の返品・キャンセル・払い戻しはお受けできません。"),
          p(
            `ただし、当事務局の不具合によりポイントが正しく付与されなかった場合は、購入日から${LEGAL.defectiveExchangeDays}日以内にご連絡いただければ、ポイントの再付与または返金により対応します。`,
          ),
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
    sections: [
      {
        heading: "1. 取得する情報",
        blocks: [
          list([
            "登録情報：メールアドレス、性別、ニックネーム、生年月日、居住地（都道府県）、職業、年収、プロフィール写真",
            "年齢確認のための身分証画像",
            "利用履歴：メッセージ、掲示板への投稿、ポイントの購入・利用履歴、お問い合わせ内容",
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
            "法令に基づく対応",
          ]),
        ],
      },
      {
        heading: "3. 写真の位置情報",
        blocks: [
          p(
            "アップロードされた写真は、撮影場所の位置情報（GPS）などのメタデータをすべて取り除いてから保存します。他の会員に位置情報が伝わることはありません。",
          ),
        ],
      },
      {
        heading: "4. 保存期間",
        blocks: [
          list([
            `身分証画像：年齢確認の完了後${LEGAL.idImageDeletionHours}時間以内に削除します。`,
            `アカウント情報：退会後${LEGAL.accountRetentionYears}年間保存し、その後削除します。`,
            `メッセージ・ポイントの利用履歴：${LEGAL.usageHistoryRetentionYears}年間保存します。`,
          ]),
        ],
      },
      {
        heading: "5. 第三者提供",
        blocks: [p("法令に基づく場合を除き、ご本人の同意なく個人情報を第三者に提供することはありません。")],
      },
      {
        heading: "6. 安全管理",
        blocks: [
          p(
            "パスワードは復元できない形式（ハッシュ）で保存し、通信は暗号化します。個人情報へのアクセスは業務上必要な担当者に限ります。",
          ),
        ],
      },
      {
        heading: "7. 開示・訂正・削除の請求",
        blocks: [
          p(
            `ご本人からの開示・訂正・利用停止・削除のご請求は ${LEGAL.supportEmail}（受付 ${LEGAL.supportReception}）までご連絡ください。`,
          ),
        ],
      },
    ],
  },
];
