import { type Db, paymentSettings } from "@enmusubi/db";
import {
  BANK_TRANSFER_BALANCE_DEFAULT,
  bankSettingsInput,
  cardSettingsInput,
  EXCHANGE_RATE_DEFAULT,
  exchangeSettingsInput,
  generalSettingsInput,
  MSG,
  POINTS_PER_ORDER_MAX,
  PURCHASE_LIMIT_DEFAULTS,
  type SettingsPatchInput,
  smartPitSettingsInput,
} from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { bankMissing, cardMissing, smartPitMissing } from "./methods";
export type SettingsRow = typeof paymentSettings.$inferSelect;

/**
 * The payment settings (spec §9): the one row, the rate arithmetic, and the administrators' view
 * and save of it. Members read what they need through purchase-info.ts.
 */

/** The single settings row; made with the §9 defaults if a database lacks it. */
export async function loadSettings(db: Db, lock = false): Promise<SettingsRow> {
  const read = () => {
    const q = db.select().from(paymentSettings).where(eq(paymentSettings.id, 1));
    return lock ? q.for("update") : q;
  };
  const [row] = await read();
  if (row) return row;
  await db
    .insert(paymentSettings)
    .values({
      id: 1,
      exchangeYenAmount: EXCHANGE_RATE_DEFAULT.yenAmount,
      exchangePointAmount: EXCHANGE_RATE_DEFAULT.pointAmount,
      exchangeIsActive: EXCHANGE_RATE_DEFAULT.isActive,
      minimumPurchase: PURCHASE_LIMIT_DEFAULTS.minimumPurchase,
      maximumPurchase: PURCHASE_LIMIT_DEFAULTS.maximumPurchase,
      bankTransferBalance: BANK_TRANSFER_BALANCE_DEFAULT,
    })
    .onConflictDoNothing();
  const [made] = await read();
  if (!made) throw new Error("payment settings row missing");
  return made;
}

/**
 * Points for a yen amount at the rate: spec §5 floor(amount / (yenAmount / pointAmount)), computed
 * in integers (amount × pointAmount ÷ yenAmount) so a rate like 3 yen = 1 point never rounds 2.9999….
 */
export function pointsFor(amount: number, rate: { yenAmount: number; pointAmount: number }): number {
  // In BigInt: amount × pointAmount can pass 2^53 with the settings' largest figures.
  return Number((BigInt(amount) * BigInt(rate.pointAmount)) / BigInt(rate.yenAmount));
}

export const bankOf = (s: SettingsRow) => ({
  bankName: s.bankName,
  bankBranchName: s.bankBranchName,
  bankAccountType: s.bankAccountType,
  bankAccountNumber: s.bankAccountNumber,
  bankAccountName: s.bankAccountName,
});

/**
 * The API key is never sent back, not even to an administrator: the answer says whether one is set
 * and shows its last 4 characters; the SmartPit form sends a new key only when the administrator
 * types one (empty keeps the stored key). Audit rows hold the same mask.
 */
export function maskKey(key: string): string {
  if (!key) return "";
  return `${"•".repeat(Math.max(4, Math.min(12, key.length - 4)))}${key.slice(-4)}`;
}

export function adminSettingsView(s: SettingsRow) {
  const smartPitNeeds = smartPitMissing(s);
  const bankNeeds = bankMissing(s);
  const cardNeeds = cardMissing(s);
  return {
    exchange: {
      yenAmount: s.exchangeYenAmount,
      pointAmount: s.exchangePointAmount,
      isActive: s.exchangeIsActive,
      /** points ÷ yen to 4 decimals (spec §9 "displayed rate"). */
      displayRate: (s.exchangePointAmount / s.exchangeYenAmount).toFixed(4),
    },
    smartPit: {
      smartPitId: s.smartPitId,
      apiKeySet: s.smartPitApiKey.length > 0,
      apiKeyMasked: maskKey(s.smartPitApiKey),
      isActive: s.smartPitIsActive,
      /** Offered to members: switched on and nothing missing. */
      usable: s.smartPitIsActive && smartPitNeeds.length === 0,
      /** What the method still lacks (labels as the screen shows them). */
      missing: smartPitNeeds,
    },
    bank: {
      bankName: s.bankName,
      bankBranchName: s.bankBranchName,
      bankAccountType: s.bankAccountType,
      bankAccountNumber: s.bankAccountNumber,
      bankAccountName: s.bankAccountName,
      isActive: s.bankIsActive,
      usable: s.bankIsActive && bankNeeds.length === 0,
      missing: bankNeeds,
    },
    /** The card processor (decision 0046): the secret is never answered, only whether it is set and its mask. */
    card: {
      merchantId: s.cardMerchantId,
      secretSet: s.cardSecret.length > 0,
      secretMasked: maskKey(s.cardSecret),
      paymentUrl: s.cardPaymentUrl,
      isActive: s.cardIsActive,
      ageVerification: s.cardAgeVerification,
      usable: s.cardIsActive && cardNeeds.length === 0,
      missing: cardNeeds,
    },
    general: {
      minimumPurchase: s.minimumPurchase,
      maximumPurchase: s.maximumPurchase,
      bankTransferBalance: s.bankTransferBalance,
    },
    updatedAt: s.updatedAt,
  };
}
export type AdminPaymentSettings = ReturnType<typeof adminSettingsView>;

export async function getAdminSettings(db: Db): Promise<AdminPaymentSettings> {
  return adminSettingsView(await loadSettings(db));
}

type Section = "exchange" | "smartPit" | "bank" | "card" | "general";

/** The first message of a refused section, as the catalogue's BAD_REQUEST. */
function checked<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues[0]?.message ?? MSG.badRequest);
  return parsed.data;
}

/**
 * `adminPayments.saveSettings`: any sections, any of their fields, merged with the stored row under
 * its lock (so two saves of different sections or fields both persist), then held to the rules over
 * the merged values: the §5 minimums, limits in order, a method switched on only with what it needs,
 * and the rate bound (the maximum purchase may not buy more than POINTS_PER_ORDER_MAX points, so no
 * order can overflow a balance). An `apiKey` that is the mask the settings answer shows (a client
 * sending back what it read) keeps the stored key. Each section saved is audited before → after.
 */
export async function saveSettings(db: Db, adminId: string, patch: SettingsPatchInput): Promise<AdminPaymentSettings> {
  return db.transaction(async (tx) => {
    const current = await loadSettings(tx, true);
    const before = adminSettingsView(current);
    const values: Partial<typeof paymentSettings.$inferInsert> = {};
    const sections: Section[] = [];
    let rate = { yenAmount: current.exchangeYenAmount, pointAmount: current.exchangePointAmount };
    let limits = { minimumPurchase: current.minimumPurchase, maximumPurchase: current.maximumPurchase };
    if (patch.exchange) {
      const e = checked(exchangeSettingsInput, {
        yenAmount: patch.exchange.yenAmount ?? current.exchangeYenAmount,
        pointAmount: patch.exchange.pointAmount ?? current.exchangePointAmount,
        isActive: patch.exchange.isActive ?? current.exchangeIsActive,
      });
      rate = { yenAmount: e.yenAmount, pointAmount: e.pointAmount };
      Object.assign(values, {
        exchangeYenAmount: e.yenAmount,
        exchangePointAmount: e.pointAmount,
        exchangeIsActive: e.isActive,
      });
      sections.push("exchange");
    }
    if (patch.smartPit) {
      const sent = patch.smartPit.apiKey ?? "";
      // Empty, or the mask the settings answer shows: the stored key stays.
      const newKey = sent.length > 0 && !sent.includes("•") ? sent : undefined;
      const sp = checked(smartPitSettingsInput, {
        smartPitId: patch.smartPit.smartPitId ?? current.smartPitId,
        isActive: patch.smartPit.isActive ?? current.smartPitIsActive,
      });
      const switchedOn = sp.isActive && (patch.smartPit.isActive === true || !current.smartPitIsActive);
      // Switching SmartPit on needs a key: the stored one, or one sent now.
      if (switchedOn && !newKey && !current.smartPitApiKey) throw new AppError("BAD_REQUEST", MSG.smartPitKeyRequired);
      Object.assign(values, {
        smartPitId: sp.smartPitId,
        smartPitIsActive: sp.isActive,
        ...(newKey ? { smartPitApiKey: newKey } : {}),
      });
      sections.push("smartPit");
    }
    if (patch.bank) {
      const b = checked(bankSettingsInput, {
        bankName: patch.bank.bankName ?? current.bankName,
        bankBranchName: patch.bank.bankBranchName ?? current.bankBranchName,
        bankAccountType: patch.bank.bankAccountType ?? current.bankAccountType,
        bankAccountNumber: patch.bank.bankAccountNumber ?? current.bankAccountNumber,
        bankAccountName: patch.bank.bankAccountName ?? current.bankAccountName,
        isActive: patch.bank.isActive ?? current.bankIsActive,
      });
      Object.assign(values, {
        bankName: b.bankName,
        bankBranchName: b.bankBranchName,
        bankAccountType: b.bankAccountType || "普通",
        bankAccountNumber: b.bankAccountNumber,
        bankAccountName: b.bankAccountName,
        bankIsActive: b.isActive,
      });
      sections.push("bank");
    }
    if (patch.card) {
      const sent = patch.card.secret ?? "";
      // Empty, or the mask the settings answer shows: the stored secret stays.
      const newSecret = sent.length > 0 && !sent.includes("•") ? sent : undefined;
      const c = checked(cardSettingsInput, {
        merchantId: patch.card.merchantId ?? current.cardMerchantId,
        paymentUrl: patch.card.paymentUrl ?? current.cardPaymentUrl,
        isActive: patch.card.isActive ?? current.cardIsActive,
        ageVerification: patch.card.ageVerification ?? current.cardAgeVerification,
      });
      const switchedOn = c.isActive && (patch.card.isActive === true || !current.cardIsActive);
      // Switching the card on needs a secret: the stored one, or one sent now.
      if (switchedOn && !newSecret && !current.cardSecret) throw new AppError("BAD_REQUEST", MSG.cardSettingsRequired);
      Object.assign(values, {
        cardMerchantId: c.merchantId,
        cardPaymentUrl: c.paymentUrl,
        cardIsActive: c.isActive,
        cardAgeVerification: c.ageVerification,
        ...(newSecret ? { cardSecret: newSecret } : {}),
      });
      sections.push("card");
    }
    if (patch.general) {
      const g = checked(generalSettingsInput, {
        minimumPurchase: patch.general.minimumPurchase ?? current.minimumPurchase,
        maximumPurchase: patch.general.maximumPurchase ?? current.maximumPurchase,
        bankTransferBalance: patch.general.bankTransferBalance ?? current.bankTransferBalance,
      });
      limits = { minimumPurchase: g.minimumPurchase, maximumPurchase: g.maximumPurchase };
      Object.assign(values, g);
      sections.push("general");
    }
    if (sections.length === 0) throw new AppError("BAD_REQUEST", MSG.badRequest);
    if ((patch.exchange || patch.general) && pointsFor(limits.maximumPurchase, rate) > POINTS_PER_ORDER_MAX) {
      throw new AppError("BAD_REQUEST", MSG.exchangeBoundExceeded);
    }
    const [row] = await tx.update(paymentSettings).set(values).where(eq(paymentSettings.id, 1)).returning();
    if (!row) throw new Error("payment settings row missing");
    const after = adminSettingsView(row);
    for (const section of sections) {
      const strip = (v: Record<string, unknown>) => {
        const { usable: _u, missing: _m, ...rest } = v;
        return rest;
      };
      await writeAudit(tx, {
        adminId,
        action: `payment_settings.${section}`,
        targetType: "payment_settings",
        targetId: "1",
        details: { before: strip(before[section]), after: strip(after[section]) },
      });
    }
    return after;
  });
}

/** The one-section saves of the settings screen: a patch of the whole section. */
export const updateExchange = (db: Db, adminId: string, input: z.infer<typeof exchangeSettingsInput>) =>
  saveSettings(db, adminId, { exchange: input });

export const updateSmartPit = (db: Db, adminId: string, input: z.infer<typeof smartPitSettingsInput>) =>
  saveSettings(db, adminId, { smartPit: input });

export const updateBank = (db: Db, adminId: string, input: z.infer<typeof bankSettingsInput>) =>
  saveSettings(db, adminId, { bank: input });

export const updateCard = (db: Db, adminId: string, input: z.infer<typeof cardSettingsInput>) =>
  saveSettings(db, adminId, { card: input });

export const updateGeneral = (db: Db, adminId: string, input: z.infer<typeof generalSettingsInput>) =>
  saveSettings(db, adminId, { general: input });
