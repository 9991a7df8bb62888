import { PAID_IN_ADVANCE } from "../features/payments/terms";
import type { LegalInfo } from "../features/payments/types";
import { type LegalBlock, list, p } from "./blocks";

/**
 * The 特商法 page's payment paragraphs, from the methods the payment settings offer today
 * (`legal.info` → `usableMethods`: switched on and configured completely; decision 0043). A method
 * that is not offered is not named: no クレジットカード while the card processor is not configured
 * (decision 0046), no 銀行振込 while the account is not set.
 */

type Methods = LegalInfo["methods"];

interface Method {
  name: string;
  timing: string;
  credit: string;
  fee: string;
}

const METHODS: Array<[keyof Methods, Method]> = [
  [
    "card",
    {
      name: "クレジットカード",
      timing: "お申込み時に、決済代行会社の決済ページでお支払いください（ご注文時に決済されます）。",
      credit: "クレジットカードは決済の完了後ただちに",
      fee: "",
    },
  ],
  [
    "smartPit",
    {
      name: "コンビニエンスストア払い（スマートピット）",
      timing: "お申込み後に表示される支払番号・バーコードで、支払期限までにお支払いください。",
      credit: "スマートピットはお支払いの確認後",
      fee: "コンビニエンスストアでの支払手数料",
    },
  ],
  [
    "bankTransfer",
    {
      name: "銀行振込",
      timing: "お申込み後、画面に表示される振込先へ、表示された振込名義でお振り込みください。",
      credit: "銀行振込は当事務局が入金を確認した後",
      fee: "銀行振込手数料",
    },
  ],
];

export const NO_METHOD_TEXT = "現在、ポイントの新規のお申込みは受け付けておりません。";

const offered = (methods: Methods) => METHODS.filter(([key]) => methods[key]).map(([, method]) => method);

/** 支払方法: the methods offered, each paid in advance; none: purchases are not taken now. */
export function paymentMethodBlocks(methods: Methods): LegalBlock[] {
  const open = offered(methods);
  if (open.length === 0) return [p(NO_METHOD_TEXT)];
  return [list(open.map((m) => m.name)), p(PAID_IN_ADVANCE)];
}

/** 支払時期: when each offered method is paid. */
export function paymentTimingBlocks(methods: Methods): LegalBlock[] {
  const open = offered(methods);
  if (open.length === 0) return [p(NO_METHOD_TEXT)];
  return [list(open.map((m) => `${m.name}：${m.timing}`))];
}

/** ポイントの引渡時期: after the payment is confirmed, said for each offered method. */
export function creditTimingBlocks(methods: Methods): LegalBlock[] {
  const open = offered(methods);
  const detail = open.length > 0 ? `（${open.map((m) => m.credit).join("、")}）` : "";
  return [p(`ポイントはお支払いの確認後に付与します${detail}。`)];
}

/** 商品代金以外の必要料金: the connection charges, and the fee of each offered method. */
export function extraChargesText(methods: Methods): string {
  const fees = [
    "インターネット接続料金・通信料金",
    ...offered(methods)
      .map((m) => m.fee)
      .filter(Boolean),
  ];
  return `${fees.join("、")}はお客様のご負担となります。`;
}
