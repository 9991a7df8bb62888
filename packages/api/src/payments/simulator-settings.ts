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
