/** The card processor's settings tab (decision 0046). */
export const CARD_SETTINGS_TEXT = {
  tab: "クレジットカード",
  merchantId: "加盟店ID",
  secret: "シークレットキー",
  secretSet: (masked: string) => `登録済み（${masked}）。変更する場合のみ入力してください。`,
  secretUnset: "未登録です。決済代行会社から発行されたキーを入力してください。",
  paymentUrl: "決済ページURL",
  paymentUrlHint:
    "決済代行会社の決済ページのURL。結果通知の送信先は「/api/payments/card/notify」、戻り先は購入画面です。",
  active: "クレジットカード決済を有効にする",
  ageVerification: "初回のカード決済完了を年齢確認として扱う",
  ageVerificationHint:
    "出会い系サイト規制法施行規則により、クレジットカードでの支払いは年齢確認の方法として認められています。有効にすると、会員の初回のカード決済完了時に年齢確認済みとなり、年齢確認の履歴に記録されます。",
} as const;
