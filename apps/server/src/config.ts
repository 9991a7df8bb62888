import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { defaultWorkers } from "./cluster";
import { type OperatorParticulars, operatorPlaceholder, particularProblems } from "./legal-particulars";

export { operatorPlaceholder } from "./legal-particulars";

/** A variable set to nothing but blanks counts as unset (its placeholder shows; production refuses it). */
const particular = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.string().trim().max(max).optional(),
  );

/** The one place that reads the environment. Invalid settings stop the process at boot. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().default("./data"),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().default("縁結び <no-reply@enmusubi.local>"),
  PUBLIC_URL: z.url().optional(),
  ADMIN_USERID: z.string().min(3).max(100).optional(),
  ADMIN_PASSWORD: z.string().min(6).max(200).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: z.string().optional(),
  // 特商法 and terms: the operator's particulars (placeholders say which variable is missing).
  // With NODE_ENV=production each must be set to the real particular (`assertSafeForEnv`, decision 0043).
  OPERATOR_NAME: particular(200),
  OPERATOR_ADDRESS: particular(300),
  OPERATOR_PHONE: particular(50),
  OPERATOR_EMAIL: particular(200),
  /** インターネット異性紹介事業 届出番号 (出会い系サイト規制法 art. 7). */
  DATING_BUSINESS_NUMBER: particular(100),
  /** The SMS provider's HTTP endpoint (decision 0048); unset: the development sink under DATA_DIR/sms. */
  SMS_API_URL: z.url().optional(),
  /** The provider's API key, sent as a bearer token. */
  SMS_API_KEY: z.string().min(8, "SMS_API_KEY must be at least 8 characters").optional(),
  /** "true" lets a production server write SMS to DATA_DIR/sms instead of sending them (a staging host). */
  SMS_DEV_SINK: z.enum(["true", "false", "1", "0"]).optional(),
  /** Serves the local SmartPit simulator (dev only, never in production). */
  SMARTPIT_SIMULATOR: z.enum(["true", "false", "1", "0"]).optional(),
  /** Serves the local card processor simulator (dev only, never in production; decision 0046). */
  CARD_SIMULATOR: z.enum(["true", "false", "1", "0"]).optional(),
  /** Worker processes sharing the port (PostgreSQL only; PGlite is one process per data directory). */
  WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Connections each worker's pool opens to PostgreSQL at most (see `poolMaxFor`). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  /** "false" leaves the background jobs to other instances (they are safe to run on all of them). */
  JOBS: z.enum(["true", "false", "1", "0"]).optional(),
  /** Bearer token of GET /metrics; unset, the route does not exist (404). */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  /** Bearer token of GET /ops/backup (PGlite: the running server dumps its database for `pnpm db:backup`). */
  BACKUP_TOKEN: z.string().min(32, "BACKUP_TOKEN must be at least 32 characters").optional(),
  /** New-message notices: a member active this many minutes ago is on the site and gets none (decision 0033). */
  NOTICE_LIVE_MINUTES: z.coerce.number().int().min(0).max(60).default(10),
});

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY lists. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (/^\d+$/.test(bits)) return Number(bits) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(bits) === 4; // a netmask: 10.0.0.0/255.0.0.0
}

/**
 * TRUST_PROXY: which peers may tell us the client's address (X-Forwarded-For) and protocol.
 * Unset or "false": nobody, the socket address is the client (per-IP rate limits cannot be
 * dodged by sending the header). "true": every peer (only behind a proxy that overwrites the
 * header). A number: that many proxy hops in front of the server. Otherwise a comma-separated list
 * of proxy addresses or CIDR ranges (and proxy-addr's names loopback, linklocal, uniquelocal).
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const text = value?.trim() ?? "";
  if (text === "" || text === "false") return false;
  if (text === "true") return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (invalid.length > 0) {
    throw new Error(
      `Invalid configuration:\n  TRUST_PROXY: not an address, CIDR range, hop count, true or false: ${invalid.join(", ") || "(empty entry)"}`,
    );
  }
  return entries;
}

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  admin: { userID: string; password: string } | undefined;
  logLevel: string;
  /** Proxies whose X-Forwarded-* headers are believed (TRUST_PROXY); false: none. */
  trustProxy: boolean | number | string[];
  /** Directory of the built web app; served with the SPA fallback when it exists. */
  webDist: string;
  /** Start the background jobs (pg-boss). Tests that only call routes leave them off. */
  jobs: boolean;
  /** NOTICE_LIVE_MINUTES (decision 0033). */
  noticeLiveMinutes: number;
  /**
   * Worker processes (node:cluster) sharing the port: WORKERS, by default the number of cores with
   * PostgreSQL (one fewer when it runs on this machine, `defaultWorkers`) and always 1 with PGlite
   * (one process owns its data directory).
   */
  workers: number;
  /** DATABASE_POOL_MAX, by default `poolMaxFor(workers)`. */
  databasePoolMax: number;
  /** The operator's particulars for 特商法 and the terms (placeholders when unset; production refuses those). */
  operator: OperatorParticulars;
  /** Bearer token of GET /metrics (METRICS_TOKEN); undefined: no /metrics route. */
  metricsToken: string | undefined;
  /** Bearer token of GET /ops/backup (BACKUP_TOKEN, PGlite only); undefined: no such route. */
  backupToken: string | undefined;
  /** The local SmartPit simulator's dev route (SMARTPIT_SIMULATOR); refused in production (`assertSafeForEnv`). */
  smartPitSimulator: boolean;
  /** The local card processor simulator's dev pages (CARD_SIMULATOR); refused in production (`assertSafeForEnv`). */
  cardSimulator: boolean;
  /**
   * SMS (decision 0048): the provider's URL and key, or, without a URL, the development sink under
   * DATA_DIR/sms, which production refuses unless `devSinkAllowed` (SMS_DEV_SINK).
   */
  sms: { url: string | undefined; apiKey: string | undefined; devSinkAllowed: boolean };
}

const SIMULATOR_IN_PRODUCTION =
  "  SMARTPIT_SIMULATOR: the SmartPit simulator (POST /dev/smartpit/pay) pays orders without money and cannot be enabled when NODE_ENV=production; unset SMARTPIT_SIMULATOR or set it to false";

const CARD_SIMULATOR_IN_PRODUCTION =
  "  CARD_SIMULATOR: the card payment simulator (/dev/card/checkout) pays orders without money and cannot be enabled when NODE_ENV=production; unset CARD_SIMULATOR or set it to false";
const SMS_SINK_IN_PRODUCTION =
  "  SMS_API_URL: without an SMS provider the verification codes are written to DATA_DIR/sms and never reach members; set SMS_API_URL and SMS_API_KEY, or SMS_DEV_SINK=true to allow the file sink";

/**
 * Settings that must never run together, checked by loadConfig and again by buildApp and where
 * the dev route is registered (a configuration can be made by hand): the server refuses to start.
 * In production: no SmartPit simulator, and every legal particular set to a real value (one line
 * per variable that is unset, blank or a placeholder; decision 0043).
 */
export function assertSafeForEnv(
  config: Pick<Config, "env" | "smartPitSimulator" | "operator"> &
    Partial<Pick<Config, "cardSimulator">> & { sms?: Config["sms"] },
): void {
  if (config.env !== "production") return;
  const lines = [
    ...(config.smartPitSimulator ? [SIMULATOR_IN_PRODUCTION] : []),
    ...(config.cardSimulator ? [CARD_SIMULATOR_IN_PRODUCTION] : []),
    ...(config.sms && !config.sms.url && !config.sms.devSinkAllowed ? [SMS_SINK_IN_PRODUCTION] : []),
    ...particularProblems(config.operator),
  ];
  if (lines.length > 0) throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
}

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** Reads the JWT secret from DATA_DIR, creating it once; production must set JWT_SECRET. */
function jwtSecretFor(env: z.infer<typeof envSchema>, dataDir: string): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  if (env.NODE_ENV === "production") throw new Error("JWT_SECRET is required when NODE_ENV=production");
  const file = path.join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The connections a whole server (all its workers) keeps to PostgreSQL by default. */
export const SERVER_POOL_TOTAL = 4;

/**
 * Each worker's pool by default: SERVER_POOL_TOTAL shared between the workers, at least 2 each.
 * PostgreSQL does a call's work with the least CPU with a few busy backends per core, not many
 * waiting ones: on 2 cores with 2 workers, pools of 4 instead of 10 cut PostgreSQL's CPU per
 * search by a fifth and the server's by a tenth at the same load (pnpm bench:http, decision 0037).
 * Pools of 2 instead of 4 then cut the server's CPU per search by a sixth again: the calls of a
 * busy worker queue on fewer connections, and postgres.js sends the statements queued on one
 * connection in the same turn of the event loop in one socket write (decision 0037).
 * A database server with more cores takes a larger DATABASE_POOL_MAX.
 */
export function poolMaxFor(workers: number): number {
  return Math.max(2, Math.ceil(SERVER_POOL_TOTAL / workers));
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (env.SMS_API_URL && !env.SMS_API_KEY) {
    throw new Error("Invalid configuration:\n  SMS_API_KEY: required with SMS_API_URL");
  }
  if (Boolean(env.ADMIN_USERID) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new Error("Invalid configuration: set both ADMIN_USERID and ADMIN_PASSWORD, or neither");
  }
  // pnpm runs scripts inside the package; INIT_CWD is where the command was typed.
  const dataDir = path.resolve(source.INIT_CWD ?? process.cwd(), env.DATA_DIR);
  const workers = env.DATABASE_URL ? (env.WORKERS ?? defaultWorkers(env.DATABASE_URL)) : 1;
  const config: Config = {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    jwtSecret: jwtSecretFor(env, dataDir),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    admin:
      env.ADMIN_USERID && env.ADMIN_PASSWORD ? { userID: env.ADMIN_USERID, password: env.ADMIN_PASSWORD } : undefined,
    logLevel: env.LOG_LEVEL,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    webDist: path.join(REPO_ROOT, "apps/web/dist"),
    jobs: env.JOBS !== "false" && env.JOBS !== "0",
    noticeLiveMinutes: env.NOTICE_LIVE_MINUTES,
    workers,
    databasePoolMax: env.DATABASE_POOL_MAX ?? poolMaxFor(workers),
    operator: {
      name: env.OPERATOR_NAME ?? operatorPlaceholder("OPERATOR_NAME"),
      address: env.OPERATOR_ADDRESS ?? operatorPlaceholder("OPERATOR_ADDRESS"),
      phone: env.OPERATOR_PHONE ?? operatorPlaceholder("OPERATOR_PHONE"),
      email: env.OPERATOR_EMAIL ?? operatorPlaceholder("OPERATOR_EMAIL"),
      datingBusinessNumber: env.DATING_BUSINESS_NUMBER ?? operatorPlaceholder("DATING_BUSINESS_NUMBER"),
    },
    smartPitSimulator: env.SMARTPIT_SIMULATOR === "true" || env.SMARTPIT_SIMULATOR === "1",
    cardSimulator: env.CARD_SIMULATOR === "true" || env.CARD_SIMULATOR === "1",
    sms: {
      url: env.SMS_API_URL,
      apiKey: env.SMS_API_KEY,
      devSinkAllowed: env.SMS_DEV_SINK === "true" || env.SMS_DEV_SINK === "1",
    },
    metricsToken: env.METRICS_TOKEN,
    backupToken: env.BACKUP_TOKEN,
  };
  assertSafeForEnv(config);
  return config;
}
