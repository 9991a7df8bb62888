import {
  cardIsSimulators,
  configureCardForSimulator,
  configureSmartPitForSimulator,
  createAccount,
  createPasswordHasher,
  generatePassword,
  type PasswordHasher,
  SIMULATOR_CARD_MERCHANT_ID,
  SIMULATOR_SMARTPIT_ID,
  smartPitIsSimulators,
} from "@enmusubi/api";
import { createDatabase, type Database, type Db, seedReferenceData, users } from "@enmusubi/db";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { assertSafeForEnv, type Config } from "./config";

export class MigrationError extends Error {
  constructor(cause: unknown) {
    super(`Database migration failed: ${(cause as Error)?.message ?? cause}`, { cause });
    this.name = "MigrationError";
  }
}

/** Opens the configured database, applies pending migrations and seeds reference data. */
export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir"> & Partial<Pick<Config, "databasePoolMax">>,
): Promise<Database> {
  const database = config.databaseUrl
    ? await createDatabase({ url: config.databaseUrl, max: config.databasePoolMax })
    : await createDatabase({ dataDir: config.dataDir });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw new MigrationError(error);
  }
  await seedReferenceData(database.db);
  return database;
}

/**
 * Creates the first administrator when there is none: from ADMIN_USERID / ADMIN_PASSWORD when set,
 * otherwise with generated credentials printed once to the log.
 */
export async function ensureFirstAdmin(
  db: Db,
  admin: Config["admin"],
  log: FastifyBaseLogger,
  passwords: PasswordHasher = createPasswordHasher(),
): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
  if (existing) return;
  const userID = admin?.userID ?? "admin";
  const password = admin?.password ?? generatePassword();
  const passwordHash = await passwords.hash(password);
  await db.transaction((tx) =>
    createAccount(tx, {
      userID,
      name: "管理者",
      email: "admin@enmusubi.local",
      role: "admin",
      gender: "male",
      points: 0,
      sendPoints: 0,
      passwordHash,
      verificationStatus: "verified",
    }),
  );
  if (admin) {
    log.info({ userID }, "created the first administrator from ADMIN_USERID");
  } else {
    // Printed once on purpose: there is no other way to learn generated credentials.
    process.stdout.write(
      `\n  First administrator created.\n    user ID:  ${userID}\n    password: ${password}\n  Change the password after logging in.\n\n`,
    );
  }
}

/**
 * SMARTPIT_SIMULATOR on: SmartPit without an id and a key is configured for the simulator, so a
 * purchase works at once (decision 0039). Off: a SmartPit still carrying the simulator's id is
 * logged as a warning (a development database started without the simulator, e.g. in production).
 */
export async function prepareSmartPit(
  db: Db,
  config: Pick<Config, "env" | "smartPitSimulator" | "operator">,
  log: FastifyBaseLogger,
): Promise<void> {
  if (config.smartPitSimulator) {
    assertSafeForEnv(config);
    if (await configureSmartPitForSimulator(db))
      log.info({ smartPitId: SIMULATOR_SMARTPIT_ID }, "SmartPit configured for the simulator (SMARTPIT_SIMULATOR)");
  } else if (await smartPitIsSimulators(db)) {
    log.warn(
      { smartPitId: SIMULATOR_SMARTPIT_ID },
      "SmartPit still has the simulator's settings: set the real SmartPit ID and API key in 決済設定",
    );
  }
}

/**
 * CARD_SIMULATOR on: a card processor without a merchant id and a secret is configured for the
 * simulator on this server (decision 0046, as SmartPit's, decision 0039). Off: one still carrying
 * the simulator's id is logged as a warning.
 */
export async function prepareCard(
  db: Db,
  config: Pick<Config, "env" | "smartPitSimulator" | "cardSimulator" | "operator" | "publicUrl">,
  log: FastifyBaseLogger,
): Promise<void> {
  if (config.cardSimulator) {
    assertSafeForEnv(config);
    if (await configureCardForSimulator(db, config.publicUrl))
      log.info(
        { merchantId: SIMULATOR_CARD_MERCHANT_ID },
        "card payment configured for the simulator (CARD_SIMULATOR)",
      );
  } else if (await cardIsSimulators(db)) {
    log.warn(
      { merchantId: SIMULATOR_CARD_MERCHANT_ID },
      "the card payment still has the simulator's settings: set the processor's merchant ID, secret and URL in 決済設定",
    );
  }
}
