import { randomBytes } from "node:crypto";
import { type Db, paymentSettings } from "@enmusubi/db";
import { and, eq } from "drizzle-orm";
import { loadSettings } from "./settings";

/** The merchant id SmartPit gets while the development simulator configures it (decision 0039). */
export const SIMULATOR_SMARTPIT_ID = "SIMULATOR-000001";

/**
 * At start with SMARTPIT_SIMULATOR (never in production, refused at start): SmartPit with neither an
 * id nor a key gets the simulator's id and a fresh random key, which the simulator signs with (it
 * reads the stored key), so a developer can buy at once. Whatever an administrator set stays as it
 * is, the 有効 switch included. One conditional update: several workers starting together configure
 * it once. Answers whether it configured SmartPit now.
 */
export async function configureSmartPitForSimulator(db: Db): Promise<boolean> {
  await loadSettings(db);
  const configured = await db
    .update(paymentSettings)
    .set({ smartPitId: SIMULATOR_SMARTPIT_ID, smartPitApiKey: `sim_${randomBytes(24).toString("base64url")}` })
    .where(and(eq(paymentSettings.id, 1), eq(paymentSettings.smartPitId, ""), eq(paymentSettings.smartPitApiKey, "")))
    .returning({ id: paymentSettings.id });
  return configured.length > 0;
}

/** SmartPit still carries the simulator's id: a server without the simulator says so at start. */
export async function smartPitIsSimulators(db: Db): Promise<boolean> {
  const settings = await loadSettings(db);
  return settings.smartPitId === SIMULATOR_SMARTPIT_ID;
}

/** The merchant id the card processor gets while the development simulator configures it (decision 0046). */
export const SIMULATOR_CARD_MERCHANT_ID = "SIMULATOR-CARD-0001";
/** The simulator's payment page, on this server (plugins/card-simulator.ts). */
export const CARD_SIMULATOR_PATH = "/dev/card/checkout";

/**
 * At start with CARD_SIMULATOR (never in production, refused at start), as SmartPit's
 * (decision 0039): a card processor with neither a merchant id nor a secret gets the simulator's
 * id, a fresh random secret and this server's simulator page, and is switched on (it is off until
 * configured: with nothing set, no administrator chose its switch). Whatever an administrator set stays.
 */
export async function configureCardForSimulator(db: Db, publicUrl: string): Promise<boolean> {
  await loadSettings(db);
  const configured = await db
    .update(paymentSettings)
    .set({
      cardMerchantId: SIMULATOR_CARD_MERCHANT_ID,
      cardSecret: `sim_${randomBytes(24).toString("base64url")}`,
      cardPaymentUrl: `${publicUrl}${CARD_SIMULATOR_PATH}`,
      cardIsActive: true,
    })
    .where(and(eq(paymentSettings.id, 1), eq(paymentSettings.cardMerchantId, ""), eq(paymentSettings.cardSecret, "")))
    .returning({ id: paymentSettings.id });
  return configured.length > 0;
}

/** The card processor still carries the simulator's id: a server without the simulator says so at start. */
export async function cardIsSimulators(db: Db): Promise<boolean> {
  const settings = await loadSettings(db);
  return settings.cardMerchantId === SIMULATOR_CARD_MERCHANT_ID;
}
