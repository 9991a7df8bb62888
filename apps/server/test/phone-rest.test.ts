import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { markPhoneVerified } from "@enmusubi/api/testing";
import { loginBonuses, pointLedger, pointLots, rowsOf, users } from "@enmusubi/db";
import { MSG, PHONE_VERIFICATION, phoneCodeWrongLeft, SIGNUP_BONUS_POINTS } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { createSmsSender } from "../src/sms";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";
import { PRODUCTION_PARTICULARS } from "./legal-env";

/*
 * Phone verification over REST (decision 0048) with the development SMS sink of the test server
 * (DATA_DIR/sms), the HTTP provider adapter against a local stub, the production refusal of the
 * sink, and the daily login bonus granted by the first signed-in request of the day.
 */

const server = useTestServer();
const silentLog = { info() {}, warn() {}, error() {} } as never;

const smsDir = () => path.join(server.config.dataDir, "sms");
/** The code of the newest SMS file written to `e164`. */
function codeFromSink(e164: string): string {
  const files = readdirSync(smsDir()).sort();
  for (const file of files.reverse()) {
    const text = readFileSync(path.join(smsDir(), file), "utf8");
    if (text.startsWith(`To: ${e164}\n`)) return text.match(/確認コード：(\d{6})/)?.[1] ?? "";
  }
  throw new Error(`no SMS file to ${e164}`);
}

let seq = 0;
const number = () => {
  seq += 1;
  const digits = String(20_000_000 + ((process.pid * 31 + seq * 7_777_777) % 79_999_999));
  return { typed: `080${digits}`, e164: `+8180${digits}`, shown: `080-${digits.slice(0, 4)}-${digits.slice(4)}` };
};

async function signedUpMember(): Promise<RestUser> {
  return server.createUser({ points: 0, signupBonusPending: true });
}

describe("the member's REST rows", () => {
  it("GET status → POST code (written to DATA_DIR/sms) → POST confirm: verified, the sign-up bonus granted", async () => {
    const member = await signedUpMember();
    const n = number();
    const before = await server.request({ method: "GET", url: "/api/account/phone", as: member });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      verified: false,
      pendingCode: null,
      resendWaitSeconds: 0,
      signupBonus: { points: SIGNUP_BONUS_POINTS, pending: true, grantedAt: null },
    });
    const sent = await server.request({
      method: "POST",
      url: "/api/account/phone/code",
      as: member,
      payload: { phone: n.typed },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ message: MSG.phoneCodeSent, phone: n.shown });
    const code = codeFromSink(n.e164);
    expect(code).toMatch(/^\d{6}$/);
    const waiting = (await server.request({ method: "GET", url: "/api/account/phone", as: member })).json();
    expect(waiting.pendingCode).toMatchObject({ phone: n.shown, attemptsLeft: PHONE_VERIFICATION.maxAttempts });
    expect(waiting.resendWaitSeconds).toBeGreaterThan(0);
    const wrong = await server.request({
      method: "POST",
      url: "/api/account/phone/confirm",
      as: member,
      payload: { code: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: phoneCodeWrongLeft(PHONE_VERIFICATION.maxAttempts - 1) });
    const done = await server.request({
      method: "POST",
      url: "/api/account/phone/confirm",
      as: member,
      payload: { code },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      message: MSG.phoneVerified,
      phone: `${n.shown.slice(0, 4)}****${n.shown.slice(8)}`,
      signupBonusPoints: SIGNUP_BONUS_POINTS,
    });
    const [row] = await server.database.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ phoneNumber: n.e164, points: SIGNUP_BONUS_POINTS, signupBonusPending: false });
  });

  it("a number another account holds: 409 in Japanese, nothing written, no SMS", async () => {
    const n = number();
    const holder = await signedUpMember();
    await markPhoneVerified(server.database.db, holder.id, n.e164);
    const member = await signedUpMember();
    const files = readdirSync(smsDir()).length;
    const before = await snapshotTables(server, "users", "phone_verification_codes", "point_ledger");
    const res = await server.request({
      method: "POST",
      url: "/api/account/phone/code",
      as: member,
      payload: { phone: n.shown },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: MSG.phoneTaken });
    expect(await snapshotTables(server, "users", "phone_verification_codes", "point_ledger")).toEqual(before);
    expect(readdirSync(smsDir()).length).toBe(files);
  });

  it("an administrator sees the state and clears it", async () => {
    const admin = await server.createUser({ role: "admin" });
    const member = await signedUpMember();
    const n = number();
    await markPhoneVerified(server.database.db, member.id, n.e164);
    const state = await server.request({ method: "GET", url: `/api/admin/users/${member.id}/phone`, as: admin });
    expect(state.json()).toMatchObject({ verified: true, phone: n.shown, signupBonusPending: true });
    const cleared = await server.request({
      method: "POST",
      url: `/api/admin/users/${member.id}/phone/clear`,
      as: admin,
    });
    expect(cleared.json()).toEqual({ message: MSG.phoneCleared });
    const again = await server.request({
      method: "POST",
      url: `/api/admin/users/${member.id}/phone/clear`,
      as: admin,
    });
    expect(again.statusCode).toBe(409);
    const asMember = await server.request({ method: "GET", url: `/api/admin/users/${member.id}/phone`, as: member });
    expect(asMember.statusCode).toBe(403);
  });
});

describe("the daily login bonus on the first signed-in request of the day", () => {
  it("granted once to a phone-verified member; never to an unverified one", async () => {
    const admin = await server.createUser({ role: "admin" });
    const set = await server.request({
      method: "PUT",
      url: "/api/admin/bonus-settings",
      as: admin,
      payload: { loginBonusPoints: 7 },
    });
    expect(set.json()).toEqual({ loginBonusPoints: 7, message: MSG.loginBonusSaved });
    const bad = await server.request({
      method: "PUT",
      url: "/api/admin/bonus-settings",
      as: admin,
      payload: { loginBonusPoints: 1000 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: MSG.loginBonusRange });

    const verified = await server.createUser({ points: 0 });
    const unverified = await server.createUser({ points: 0 });
    await markPhoneVerified(server.database.db, verified.id, number().e164);
    for (let i = 0; i < 3; i++) {
      for (const who of [verified, unverified]) {
        expect((await server.request({ method: "GET", url: "/api/account/phone", as: who })).statusCode).toBe(200);
      }
    }
    const [v] = await server.database.db.select().from(users).where(eq(users.id, verified.id));
    const [u] = await server.database.db.select().from(users).where(eq(users.id, unverified.id));
    expect(v?.points).toBe(7);
    expect(u?.points).toBe(0);
    const rows = await server.database.db.select().from(loginBonuses).where(eq(loginBonuses.userId, verified.id));
    expect(rows).toHaveLength(1);
    const [today] = await rowsOf<{ day: string }>(
      server.database.db,
      sql`select ((now() at time zone 'Asia/Tokyo')::date)::text as day`,
    );
    expect(rows[0]?.day).toBe(today?.day);
  });
});

describe("the SMS provider adapter", () => {
  let stub: Server;
  let url = "";
  const received: Array<{ headers: IncomingMessage["headers"]; body: unknown; path: string | undefined }> = [];
  let answer = 200;
  beforeAll(async () => {
    stub = createServer((req, res) => {
      let data = "";
      req.on("data", (chunk) => {
        data += chunk;
      });
      req.on("end", () => {
        received.push({ headers: req.headers, body: JSON.parse(data || "null"), path: req.url });
        res.writeHead(answer, { "content-type": "application/json" });
        res.end(JSON.stringify({ ok: answer < 300 }));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1/messages`;
  });
  afterAll(async () => {
    await new Promise((resolve) => stub.close(resolve));
  });

  it("posts the number and text as JSON with the key as a bearer token", async () => {
    answer = 200;
    const sender = createSmsSender({ url, apiKey: "stub-key-0123456789", dataDir: "/nonexistent" }, silentLog);
    await sender.send({ to: "+819012345678", text: "【縁結び】確認コード：123456" });
    expect(received.at(-1)).toMatchObject({
      path: "/v1/messages",
      body: { to: "+819012345678", text: "【縁結び】確認コード：123456" },
      headers: { authorization: "Bearer stub-key-0123456789", "content-type": "application/json" },
    });
  });

  it("a refusal by the provider fails the send", async () => {
    answer = 502;
    const sender = createSmsSender({ url, apiKey: "stub-key-0123456789", dataDir: "/nonexistent" }, silentLog);
    await expect(sender.send({ to: "+819012345678", text: "x" })).rejects.toThrow("SMS provider answered 502");
  });

  it("through the server: SMS_API_URL set, the code goes to the provider, not to a file", async () => {
    answer = 201;
    const { buildApp } = await import("../src/app");
    const { testPasswords } = await import("./helpers");
    const { unlimited } = await import("@enmusubi/api");
    const config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: server.config.dataDir,
        JWT_SECRET: "server-test-secret-server-test-secret-0123",
        LOG_LEVEL: "silent",
        SMS_API_URL: url,
        SMS_API_KEY: "stub-key-0123456789",
      }),
      webDist: server.config.webDist,
      jobs: false,
    };
    const app = await buildApp(config, {
      database: server.database,
      logger: false,
      passwords: testPasswords,
      limiter: unlimited,
    });
    try {
      const member = await signedUpMember();
      const n = number();
      const files = readdirSync(smsDir()).length;
      const res = await app.inject({
        method: "POST",
        url: "/api/account/phone/code",
        headers: { authorization: `Bearer ${member.token}` },
        payload: { phone: n.typed },
      });
      expect(res.statusCode).toBe(201);
      expect(received.at(-1)?.body).toMatchObject({ to: n.e164 });
      expect(readdirSync(smsDir()).length).toBe(files);
    } finally {
      await app.close();
    }
  });
});

describe("the development sink", () => {
  it("writes each SMS as a file the owner alone can read", async () => {
    const { mkdtempSync, statSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-sms-sink-"));
    const sender = createSmsSender({ url: undefined, apiKey: undefined, dataDir }, silentLog);
    await sender.send({ to: "+817012345678", text: "【縁結び】確認コード：654321" });
    await sender.send({ to: "+817012345679", text: "two" });
    const dir = path.join(dataDir, "sms");
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    const texts = files.map((f) => readFileSync(path.join(dir, f), "utf8")).sort();
    expect(texts).toEqual(["To: +817012345678\n\n【縁結び】確認コード：654321\n", "To: +817012345679\n\ntwo\n"]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, files[0] as string)).mode & 0o777).toBe(0o600);
  });

  it("production refuses it unless SMS_DEV_SINK allows it; SMS_API_URL needs its key", () => {
    const base = { JWT_SECRET: "x".repeat(40), DATA_DIR: server.config.dataDir, NODE_ENV: "production" };
    expect(() => loadConfig({ ...base, ...PRODUCTION_PARTICULARS })).toThrow(/SMS_API_URL: without an SMS provider/);
    expect(loadConfig({ ...base, ...PRODUCTION_PARTICULARS, SMS_DEV_SINK: "true" }).sms.devSinkAllowed).toBe(true);
    expect(
      loadConfig({
        ...base,
        ...PRODUCTION_PARTICULARS,
        SMS_API_URL: "https://sms.example.jp/send",
        SMS_API_KEY: "k".repeat(20),
      }).sms.url,
    ).toBe("https://sms.example.jp/send");
    expect(() =>
      loadConfig({ ...base, ...PRODUCTION_PARTICULARS, SMS_API_URL: "https://sms.example.jp/send" }),
    ).toThrow(/SMS_API_KEY: required with SMS_API_URL/);
    // Development writes files without being asked.
    expect(loadConfig({ JWT_SECRET: "x".repeat(40), DATA_DIR: server.config.dataDir }).sms.url).toBeUndefined();
  });
});

describe("the books after bonuses", () => {
  it("balance = ledger = lots for every member this file touched", async () => {
    const rows = await rowsOf<{ id: string; points: number; ledger: number; lots: number }>(
      server.database.db,
      sql`select u.id, u.points,
            (select coalesce(sum(delta), 0)::int from ${pointLedger} l where l.user_id = u.id and l.account = 'points') as ledger,
            (select coalesce(sum(remaining), 0)::int from ${pointLots} p where p.user_id = u.id) as lots
          from ${users} u`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect([row.id, row.ledger, row.lots]).toEqual([row.id, row.points, row.points]);
    const bonusRows = await server.database.db
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.kind, "signup_bonus")));
    expect(bonusRows.length).toBeGreaterThan(0);
  });
});
