/**
 * Operator particulars that pass the production check (decision 0043): every test or script that
 * starts the server with NODE_ENV=production sets them, as an operator would.
 */
export const PRODUCTION_PARTICULARS = {
  OPERATOR_NAME: "株式会社縁結び検証運営",
  OPERATOR_ADDRESS: "東京都千代田区丸の内一丁目1番1号",
  OPERATOR_PHONE: "03-1234-5678",
  OPERATOR_EMAIL: "legal@enmusubi.jp",
  DATING_BUSINESS_NUMBER: "第30120000001号",
} as const;

/**
 * What a test or benchmark host started with NODE_ENV=production sets besides the particulars: the
 * SMS file sink allowed (decision 0048), as a staging host without an SMS provider would.
 */
export const PRODUCTION_TEST_SMS = { SMS_DEV_SINK: "true" } as const;
