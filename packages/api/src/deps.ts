/*
 * What a service may take from the host, in a module of types only: services import this, never
 * context.ts (the request's context, which resolves sessions and so reaches the database). Every
 * import here is `import type`.
 */
import type { Db } from "@enmusubi/db";
import type { Gender, Role, VerificationStatus } from "@enmusubi/shared";
import type { PasswordHasher } from "./auth/password";
import type { TokenService } from "./auth/tokens";
import type { MailboxEvents } from "./messages/events";
import type { LinkSigner } from "./notices/links";
import type { SmsSender } from "./phone/sms";
import type { PhotoUrlSigner } from "./photos/signed-url";
import type { ScreeningRules } from "./screening/rules";
import type { RateLimiter } from "./security/rate-limit";

/** What the procedures need from the host. Built once by the server, or by a test. */
export interface ApiDeps {
  db: Db;
  tokens: TokenService;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  /** Where stored photos live and how their public paths look (see photos/storage). */
  uploadsDir: string;
  /** Signs short-lived full-size photo URLs with the server's secret; the /uploads plugin verifies them (decision 0028). */
  photoUrls: PhotoUrlSigner;
  /** Signs the one-click links of notice mails (decision 0033). */
  links: LinkSigner;
  /** A member active this many minutes ago gets no notice mail (NOTICE_LIVE_MINUTES, default 10; decision 0033). */
  noticeLiveMinutes?: number;
  /** Base URL of the web app, used in mails. */
  publicUrl: string;
  /** Called after a transaction that queued mail has committed, to wake the delivery job. */
  onMailQueued(): void;
  /** Sends the codes of phone verification (decision 0048): the HTTP provider or the development sink. */
  sms: SmsSender;
  /** Mailbox changes, for live unread counts (messages/events). */
  mailbox: MailboxEvents;
  /** The screening rules in force, compiled and refreshed when they change (screening/rules.ts, decision 0042). */
  screening: ScreeningRules;
  /** The operator's particulars for 特商法 and the terms (config; placeholders when unset). */
  operator?: OperatorInfo;
  /** Told of every procedure call when it ends (the server's /metrics); absent in tests. */
  observeProcedure?(call: { path: string; type: string; seconds: number; ok: boolean }): void;
}

export interface OperatorInfo {
  name: string;
  address: string;
  phone: string;
  email: string;
  /** インターネット異性紹介事業 届出番号 */
  datingBusinessNumber: string;
}

export interface Session {
  /** users.id */
  id: string;
  role: Role;
  /**
   * users.verification_status as the session's query read it, for this request only (a session
   * is resolved again on every request): the standing the procedure builders ask
   * (verification/standing.ts), with no statement of their own.
   */
  verificationStatus: VerificationStatus;
  /** users.gender as the same query read it (the search's same-gender filter), likewise. */
  gender: Gender;
}
