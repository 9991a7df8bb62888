import { type Db, paymentSettings } from "@enmusubi/db";
import type {
  bankSettingsInput,
  exchangeSettingsInput,
  generalSettingsInput,
  smartPitSettingsInput,
} from "@enmusubi/shared";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { loadSettings } from "./service";

type SettingsRow = typeof paymentSettings.$inferSelect;

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
    },
    bank: {
      bankName: s.bankName,
      bankBranchName: s.bankBranchName,
      bankAccountType: s.bankAccountType,
      bankAccountNumber: s.bankAccountNumber,
      bankAccountName: s.bankAccountName,
      isActive: s.bankIsActive,
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

type Section = "exchange" | "smartPit" | "bank" | "general";

/** One section saved on its own: lock, change, audit before → after, in one transaction. */
async function saveSection(
  db: Db,
  adminId: string,
  section: Section,
  values: Partial<typeof paymentSettings.$inferInsert>,
): Promise<AdminPaymentSettings> {
  return db.transaction(async (tx) => {
    const before = adminSettingsView(await loadSettings(tx, true));
    const [row] = await tx.update(paymentSettings).set(values).where(eq(paymentSettings.id, 1)).returning();
    if (!row) throw new Error("payment settings row missing");
    const after = adminSettingsView(row);
    await writeAudit(tx, {
      adminId,
      action: `payment_settings.${section}`,
      targetType: "payment_settings",
      targetId: "1",
      details: { before: before[section], after: after[section] },
    });
    return after;
  });
}

export const updateExchange = (db: Db, adminId: string, input: z.infer<typeof exchangeSettingsInput>) =>
  saveSection(db, adminId, "exchange", {
    exchangeYenAmount: input.yenAmount,
    exchangePointAmount: input.pointAmount,
    exchangeIsActive: input.isActive,
  });

export async function updateSmartPit(db: Db, adminId: string, input: z.infer<typeof smartPitSettingsInput>) {
  const newKey = input.apiKey && input.apiKey.length > 0 ? input.apiKey : undefined;
  if (input.isActive && !newKey) {
    // Turning SmartPit on needs a key: the stored one, or one sent now.
    const current = await loadSettings(db);
    if (!current.smartPitApiKey) throw new AppError("BAD_REQUEST", MSG.smartPitKeyRequired);
  }
  return saveSection(db, adminId, "smartPit", {
    smartPitId: input.smartPitId,
    smartPitIsActive: input.isActive,
    ...(newKey ? { smartPitApiKey: newKey } : {}),
  });
}

export const updateBank = (db: Db, adminId: string, input: z.infer<typeof bankSettingsInput>) =>
  saveSection(db, adminId, "bank", {
    bankName: input.bankName,
    bankBranchName: input.bankBranchName,
    bankAccountType: input.bankAccountType || "普通",
    bankAccountNumber: input.bankAccountNumber,
    bankAccountName: input.bankAccountName,
    bankIsActive: input.isActive,
  });

export const updateGeneral = (db: Db, adminId: string, input: z.infer<typeof generalSettingsInput>) =>
  saveSection(db, adminId, "general", {
    minimumPurchase: input.minimumPurchase,
    maximumPurchase: input.maximumPurchase,
    bankTransferBalance: input.bankTransferBalance,
  });
