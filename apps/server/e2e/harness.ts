import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPasswordHasher } from "@enmusubi/api";
import { openTestDatabase, type TestTemplate } from "@enmusubi/db/testing";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { ensureFirstAdmin } from "../src/database";
import { checkA11y } from "./a11y";

export { A11yError, checkA11y, runAxe, settle } from "./a11y";
export { checkLayout, findLayoutProblems, LayoutError } from "./layout";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: TestTemplate;
  }
}

export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-artifacts/screenshots");
/** The built app; E2E_WEB_DIST points at another build (e.g. one nobody else rebuilds mid-run). */
const WEB_DIST = process.env.E2E_WEB_DIST
  ? path.resolve(process.env.E2E_WEB_DIST)
  : path.resolve(import.meta.dirname, "../../web/dist");

/**
 * Browser tests run when Debian's Chromium is installed. Without it they are skipped with a
 * visible notice, unless E2E_REQUIRED=1 (CI), where its absence is a failure.
 */
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.E2E_REQUIRED === "1")
    throw new Error(`E2E_REQUIRED=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`);
  console.warn(`\n  ⚠ Browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium).\n`);
}

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
}

function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, "%25"));
  }
  return body;
}

function decodeSubject(raw: string): string {
  return raw.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeURIComponent(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, "%$1")),
  );
}

function parseMail(raw: string, to: string): CapturedMail {
  const split = raw.indexOf("\r\n\r\n") >= 0 ? raw.indexOf("\r\n\r\n") : raw.indexOf("\n\n");
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).trim();
  const subject = decodeSubject(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? "");
  return { to, subject, text: decodeBody(headers, body) };
}

export interface E2E {
  baseUrl: string;
  admin: { userID: string; password: string };
  mails: CapturedMail[];
  /** Waits for a mail to `to` (delivered by the real outbox job over real SMTP). */
  waitForMail(to: string, timeoutMs?: number): Promise<CapturedMail>;
  /** A new page `width` px wide; `touch`: a phone (touch events, mobile viewport, no mouse hover). */
  page(width?: number, options?: { touch?: boolean }): Promise<Page>;
  /** Checks accessibility (see `screen`), then saves `test-artifacts/screenshots/<name>-<width>.png`. */
  screenshot(page: Page, name: string): Promise<void>;
  /** Goes to `route`, waits for `ready` (text) and checks the screen's accessibility. */
  visit(page: Page, route: string, ready: string | RegExp, label?: string): Promise<void>;
  /** Waits for the dialog named `name` to finish opening, checks its accessibility and answers it. */
  dialog(page: Page, name: string | RegExp, label?: string): Promise<Locator>;
  /** Checks the screen (or open dialog) as it is now, once per label and width. */
  screen(page: Page, label: string): Promise<void>;
  /** Calls a tRPC procedure as `token` (test data; the screens are driven in the browser). */
  call<T>(token: string, path: string, input: unknown, method?: "GET" | "POST"): Promise<T>;
  /** A bearer token for `userID` (members created here have MEMBER_PASSWORD). */
  token(userID: string, password?: string): Promise<string>;
  /** Creates a member through the admin procedure (password MEMBER_PASSWORD); returns its id. */
  createMember(admin: string, userID: string, name: string, gender?: "male" | "female"): Promise<string>;
  /**
   * Approves, as the administrator `admin`, every photo and 自己紹介 change of the member `userId`
   * waiting for the profile review (decision 0044): other members see them from then on.
   */
  approveProfile(admin: string, userId: string): Promise<void>;
  /** A page at `width` (`touch`: a phone) signed in as the member `userID`, on the dashboard. */
  memberPage(userID: string, width?: number, options?: { touch?: boolean }): Promise<Page>;
  /**
   * Waits for the newest SMS to `e164` written by the development sink under DATA_DIR/sms since
   * `after` files were there, and answers the 6-digit code it carries (decision 0048).
   */
  waitForSmsCode(e164: string, options?: { after?: number; timeoutMs?: number }): Promise<string>;
  /** How many SMS files the development sink has written so far. */
  smsCount(): number;
}

/** The password of every member the browser tests create. */
export const MEMBER_PASSWORD = "member-pass-1";

/**
 * Accessibility is checked by the helpers every test uses: `visit`, `dialog`, `screenshot`,
 * `screen` and `loginThroughUi`, each once per label and width in a file; and, after each passing
 * test, every page the test opened is checked in the state it was left in unless that state (path,
 * open dialogs, width) was checked already. A new screen or dialog reached through these helpers
 * is checked without further code.
 */
const checkedLabels = new Set<string>();
const checkedStates = new Set<string>();

async function stateKey(page: Page): Promise<string> {
  const dialogs = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[role="dialog"]'))
      .map((d) => document.getElementById(d.getAttribute("aria-labelledby") ?? "")?.textContent ?? "?")
      .join("+"),
  );
  return `${new URL(page.url()).pathname}|${dialogs}@${page.viewportSize()?.width ?? 0}`;
}

/** checkA11y (axe, then the layout guard of layout.ts), once per label and width. */
export async function checkScreen(page: Page, label: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  // Japanese throughout: screen readers and line breaking both depend on it. Checked on every
  // visit, cached or not, so a browser test that only visits screens still asserts something
  // (expect.requireAssertions, decision 0045).
  const lang = await page.evaluate(() => document.documentElement.lang);
  expect(lang, `${label}: <html lang>`).toBe("ja");
  if (checkedLabels.has(`${label}@${width}`)) return;
  await checkA11y(page, label);
  checkedLabels.add(`${label}@${width}`);
  checkedStates.add(await stateKey(page));
}

/**
 * Starts the whole product for one test file: the real server (built web app, jobs on, mail over a
 * real SMTP server started here) on a fresh database, and a headless Chromium.
 */
/** A port free now on 127.0.0.1 (for a server whose PUBLIC_URL must name its own address). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * `cardSimulator`: the server runs the card processor's simulator (CARD_SIMULATOR, decision 0046),
 * on a port chosen first so that PUBLIC_URL (the processor's return and notification URLs) is the
 * address the browser uses.
 */
export function useE2E(options: { cardSimulator?: boolean } = {}): E2E {
  const mails: CapturedMail[] = [];
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let openedInTest: Page[] = [];
  const pageEvents = new WeakMap<Page, string[]>();
  /** A failed test's pages as they were left, and what each met: test-artifacts/failures/. */
  const reportFailure = async (name: string, pages: Page[]) => {
    const dir = path.join(ARTIFACTS, "../failures");
    await mkdir(dir, { recursive: true });
    const slug = name.replace(/[^\p{L}\p{N}]+/gu, "-").slice(0, 80);
    for (const [i, page] of pages.entries()) {
      if (page.isClosed()) continue;
      const file = path.join(dir, `${slug}-${i}`);
      await page.screenshot({ path: `${file}.png`, fullPage: true }).catch(() => {});
      await writeFile(`${file}.txt`, `${page.url()}\n${(pageEvents.get(page) ?? []).join("\n")}\n`).catch(() => {});
    }
  };
  let closeAll = async () => {};
  let smsDir = "";
  const smsFiles = () => (smsDir && existsSync(smsDir) ? readdirSync(smsDir).sort() : []);
  const e2e: E2E = {
    baseUrl: "",
    admin: { userID: "e2eadmin", password: "e2e-admin-pass" },
    mails,
    async waitForMail(to, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((m) => m.to === to);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async page(width = 1280, options = {}) {
      if (!browser) throw new Error("browser not started");
      const context = await browser.newContext({
        viewport: { width, height: options.touch ? 740 : 900 },
        locale: "ja-JP",
        ...(options.touch ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {}),
      });
      contexts.push(context);
      const page = await context.newPage();
      openedInTest.push(page);
      // What the page met, kept for the failure report (afterEach): errors and refused calls.
      const events: string[] = [];
      pageEvents.set(page, events);
      page.on("console", (m) => {
        if (m.type() === "error") events.push(`console: ${m.text()}`);
      });
      page.on("response", (r) => {
        if (r.status() >= 400) events.push(`${r.status()} ${r.request().method()} ${r.url()}`);
      });
      page.on("requestfailed", (r) => events.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
      return page;
    },
    async screenshot(page, name) {
      await checkScreen(page, name);
      await mkdir(ARTIFACTS, { recursive: true });
      const width = page.viewportSize()?.width ?? 0;
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
    },
    async visit(page, route, ready, label = route) {
      await page.goto(`${e2e.baseUrl}${route}`);
      await page.getByText(ready).first().waitFor();
      await checkScreen(page, label);
    },
    async dialog(page, name, label = typeof name === "string" ? name : name.source) {
      const dialog = page.getByRole("dialog", { name });
      await dialog.waitFor();
      await checkScreen(page, `dialog ${label}`);
      return dialog;
    },
    screen: checkScreen,
    call: (token, procedure, input, method) => trpcCall(e2e.baseUrl, token, procedure, input, method),
    token: (userID, password = MEMBER_PASSWORD) => apiToken(e2e.baseUrl, userID, password),
    async createMember(admin, userID, name, gender = "male") {
      const created = await e2e.call<{ id: string }>(admin, "adminUsers.create", {
        userID,
        password: MEMBER_PASSWORD,
        name,
        email: `${userID}@example.jp`,
        gender,
      });
      return created.id;
    },
    async approveProfile(admin, userId) {
      const queue = await e2e.call<{ entries: Array<{ id: string; user: { id: string } }> }>(
        admin,
        "adminProfileReview.queue",
        { page: 1, limit: 100 },
        "GET",
      );
      for (const entry of queue.entries.filter((e) => e.user.id === userId)) {
        await e2e.call(admin, "adminProfileReview.approve", { id: entry.id });
      }
    },
    smsCount: () => smsFiles().length,
    async waitForSmsCode(e164, { after = 0, timeoutMs = 15_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const file of smsFiles().slice(after).reverse()) {
          const text = readFileSync(path.join(smsDir, file), "utf8");
          const code = text.startsWith(`To: ${e164}\n`) ? /確認コード：(\d{6})/.exec(text)?.[1] : undefined;
          if (code) return code;
        }
        if (Date.now() > deadline) throw new Error(`no SMS to ${e164} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async memberPage(userID, width = 1280, options = {}) {
      const page = await e2e.page(width, options);
      await loginThroughUi(page, e2e.baseUrl, userID, MEMBER_PASSWORD);
      await page.getByTestId("dashboard-points").waitFor();
      return page;
    },
  };

  afterEach(async ({ task }) => {
    const pages = openedInTest;
    openedInTest = [];
    if (task.result?.state === "fail") {
      await reportFailure(task.name, pages);
      return;
    }
    for (const page of pages) {
      if (page.isClosed()) continue;
      const key = await stateKey(page);
      if (checkedStates.has(key)) continue;
      await checkA11y(page, `end of "${task.name}" ${key.split("@")[0]}`);
      checkedStates.add(key);
    }
  });

  beforeAll(async () => {
    if (!hasChromium) return;
    if (!existsSync(path.join(WEB_DIST, "index.html"))) {
      throw new Error("apps/web/dist is missing: run `pnpm build` first (pnpm test does)");
    }
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          for (const rcpt of session.envelope.rcptTo) mails.push(parseMail(raw, rcpt.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const smtpPort = (smtp.server.address() as { port: number }).port;

    const database = await openTestDatabase(inject("dbTemplate"));
    const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-e2e-"));
    const ownPort = options.cardSimulator ? await freePort() : 0;
    // No SMS_API_URL: codes are written under DATA_DIR/sms (decision 0048), where tests read them.
    smsDir = path.join(dataDir, "sms");
    const config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        JWT_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        LOG_LEVEL: "warn",
        PORT: String(ownPort),
        ...(options.cardSimulator ? { CARD_SIMULATOR: "true", PUBLIC_URL: `http://127.0.0.1:${ownPort}` } : {}),
        // The members a walk signs in would be "on the site" for 10 minutes: no notice mails (decision 0033).
        NOTICE_LIVE_MINUTES: "0",
      }),
      webDist: WEB_DIST,
    };
    const app = await buildApp(config, { database, logger: false });
    await ensureFirstAdmin(database.db, e2e.admin, app.log, createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
    await app.listen({ port: ownPort, host: "127.0.0.1" });
    const { port } = app.server.address() as { port: number };
    e2e.baseUrl = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
      ],
    });
    closeAll = async () => {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close();
      await app.close();
      await database.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    };
  });
  afterAll(async () => {
    await closeAll();
  });
  return e2e;
}

/** Logs in through the login page and waits for the role's home. */
export async function loginThroughUi(
  page: Page,
  baseUrl: string,
  userID: string,
  password: string,
  { consent = true }: { consent?: boolean } = {},
): Promise<void> {
  // A member an administrator made has accepted no terms and would meet the first-sign-in gate
  // (decision 0034); walks that are not about it accept them first, as the member would.
  if (consent) await acceptTermsFor(baseUrl, userID, password);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("ユーザーID").waitFor();
  await checkScreen(page, "login");
  await page.getByLabel("ユーザーID").fill(userID);
  await page.getByLabel("パスワード").fill(password);
  await page.getByRole("button", { name: "ログイン", exact: true }).click();
  await page.waitForURL(/\/(admin|user)(\/|$)/);
}

/** Calls a tRPC procedure over HTTP as `token` (test data; the screens are driven in the browser). */
export async function trpcCall<T>(
  baseUrl: string,
  token: string,
  path: string,
  input: unknown,
  method: "GET" | "POST" = "POST",
): Promise<T> {
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const response =
    method === "GET"
      ? await fetch(`${baseUrl}/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers })
      : await fetch(`${baseUrl}/trpc/${path}`, { method, headers, body: JSON.stringify({ json: input }) });
  const body = (await response.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!response.ok || !body.result) throw new Error(`${path} failed: ${JSON.stringify(body.error)}`);
  return body.result.data.json;
}

/** Accepts the terms in force for a member who has not (REST, as the gate would); nothing for an administrator. */
export async function acceptTermsFor(baseUrl: string, userID: string, password: string): Promise<void> {
  const token = await apiToken(baseUrl, userID, password);
  if (!token) return;
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const state = await fetch(`${baseUrl}/api/auth/consent`, { headers });
  if (state.status !== 200) return;
  const { required, currentVersion } = (await state.json()) as { required: boolean; currentVersion: string };
  if (!required) return;
  const body = JSON.stringify({ acceptTerms: true, adult: true, termsVersion: currentVersion });
  const accepted = await fetch(`${baseUrl}/api/auth/consent`, { method: "POST", headers, body });
  if (accepted.status !== 200) throw new Error(`consent for ${userID} failed: ${accepted.status}`);
}

/** A bearer token through POST /api/auth/login. */
export async function apiToken(baseUrl: string, userID: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userID, password }),
  });
  return ((await response.json()) as { token: string }).token;
}
