import type { paymentSettings } from "@enmusubi/db";
import { PAYMENT_METHODS, type PaymentMethod } from "@enmusubi/shared";

type SettingsRow = typeof paymentSettings.$inferSelect;

/** What SmartPit still lacks to take a payment: a code is useless without the id, a notification unverifiable without the key. */
export function smartPitMissing(s: SettingsRow): string[] {
  const missing: string[] = [];
  if (!s.smartPitId.trim()) missing.push("SmartPit ID");
  if (!s.smartPitApiKey) missing.push("APIキー");
  return missing;
}

/** What bank transfer still lacks: a member cannot transfer without every field of the account. */
export function bankMissing(s: SettingsRow): string[] {
  const fields: Array<[string, string]> = [
    ["銀行名", s.bankName],
    ["支店名", s.bankBranchName],
    ["口座種別", s.bankAccountType],
    ["口座番号", s.bankAccountNumber],
    ["口座名義", s.bankAccountName],
  ];
  return fields.filter(([, value]) => !value.trim()).map(([label]) => label);
}

/** What the card processor still lacks: the page to send members to, and the merchant id and secret that sign. */
export function cardMissing(s: SettingsRow): string[] {
  const missing: string[] = [];
  if (!s.cardMerchantId.trim()) missing.push("加盟店ID");
  if (!s.cardSecret) missing.push("シークレットキー");
  if (!s.cardPaymentUrl.trim()) missing.push("決済ページURL");
  return missing;
}

/**
 * The methods members are offered and may order with: switched on and configured completely. A
 * method switched on with a field missing is not offered (the settings screen says what is missing).
 */
export function usableMethods(s: SettingsRow): { smartPit: boolean; bankTransfer: boolean; card: boolean } {
  return {
    smartPit: s.smartPitIsActive && smartPitMissing(s).length === 0,
    bankTransfer: s.bankIsActive && bankMissing(s).length === 0,
    card: s.cardIsActive && cardMissing(s).length === 0,
  };
}

/** Whether members may order with this method now. */
export function methodUsable(s: SettingsRow, method: PaymentMethod): boolean {
  const m = usableMethods(s);
  return method === "card" ? m.card : method === "smart_pit" ? m.smartPit : m.bankTransfer;
}

/**
 * The usable methods by their ids (the shared PAYMENT_METHODS, which the database enum is built
 * from), in that list's order: `usableMethods`' key of each id is its camel-case name
 * (smart_pit → smartPit). A method with no key there is not usable. Purchase campaigns limited to a
 * method take their list from here (decision 0047).
 */
export function usableMethodIds(s: SettingsRow): PaymentMethod[] {
  const usable: Record<string, boolean> = usableMethods(s);
  return PAYMENT_METHODS.filter((m) => usable[m.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] === true);
}
