import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { mailOutbox } from "@enmusubi/db";
import { eq, inArray, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createMailTransport, deliverDueMail, MAIL_MAX_ATTEMPTS, type MailTransport } from "../src/jobs/mail-outbox";
import { useTestServer } from "./helpers";

/**
 * The mail outbox delivered over real SMTP to a server started here (smtp-server): what arrives,
 * what happens while the server is down or answers 4xx, and that a retry delivers exactly once.
 */

const server = useTestServer();
const FROM = "縁結び <no-reply@enmusubi.local>";

interface Received {
  mailFrom: string;
  rcptTo: string[];
  from: string;
  to: string;
  subject: string;
  text: string;
}

/** Decodes `=?UTF-8?B?…?=` / `=?UTF-8?Q?…?=` words; adjacent words are joined before UTF-8 decoding. */
function decodeWords(value: string): string {
  return value.replace(/(=\?utf-8\?[bq]\?[^?]*\?=\s*)+/gi, (run) => {
    const bytes: Buffer[] = [];
    for (const [, kind, text] of run.matchAll(/=\?utf-8\?([bq])\?([^?]*)\?=/gi)) {
      bytes.push(
        kind?.toLowerCase() === "b" ? Buffer.from(text ?? "", "base64") : qpBytes((text ?? "").replace(/_/g, " ")),
      );
    }
    // Blanks between encoded words are dropped; a blank after the last one belongs to the text.
    return Buffer.concat(bytes).toString("utf8") + (/\s+$/.exec(run)?.[0] ?? "");
  });
}

/** Quoted-printable to bytes (soft line breaks removed, =XX turned into the byte). */
function qpBytes(text: string): Buffer {
  const out: number[] = [];
  const s = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < s.length; i++) {
    const hex = s.slice(i + 1, i + 3);
    if (s[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      out.push(...Buffer.from(s[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(out);
}

function parseMessage(raw: string): Omit<Received, "mailFrom" | "rcptTo"> {
  const split = raw.search(/\r?\n\r?\n/);
  const headerText = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(headerText)?.[1] ?? "";
  const encoding = header("content-transfer-encoding").toLowerCase();
  const charset = /charset="?([\w-]+)/i.exec(header("content-type"))?.[1]?.toLowerCase() ?? "utf-8";
  expect(charset).toBe("utf-8");
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? qpBytes(body).toString("utf8")
        : body;
  return {
    from: decodeWords(header("from")),
    to: decodeWords(header("to")),
    subject: decodeWords(header("subject")),
    text: text.replace(/\r\n/g, "\n").replace(/\n$/, ""),
  };
}

/** A real SMTP server on 127.0.0.1; `mode` "tempfail" answers every message with 451. */
class TestSmtp {
  readonly received: Received[] = [];
  mode: "accept" | "tempfail" = "accept";
  private smtp: SMTPServer | undefined;

  async start(port = 0): Promise<number> {
    this.smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if (this.mode === "tempfail") {
            callback(Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 }));
            return;
          }
          const envelope = session.envelope;
          this.received.push({
            mailFrom: envelope.mailFrom ? envelope.mailFrom.address : "",
            rcptTo: envelope.rcptTo.map((r) => r.address),
            ...parseMessage(Buffer.concat(chunks).toString("utf8")),
          });
          callback();
        });
      },
    });
    const smtp = this.smtp;
    await new Promise<void>((resolve, reject) => {
      smtp.server.once("error", reject);
      smtp.listen(port, "127.0.0.1", () => resolve());
    });
    return (smtp.server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    const smtp = this.smtp;
    this.smtp = undefined;
    if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

/** A port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function transportTo(port: number): MailTransport {
  return createMailTransport(
    { smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, dataDir: server.config.dataDir },
    server.app.log,
  );
}

const deliver = (transport: MailTransport) => deliverDueMail(server.database.db, transport, server.app.log);

/** Queues a mail the way enqueueMail does (one row in mail_outbox); returns its id. */
async function queue(mail: { to: string; subject: string; text: string }): Promise<string> {
  const [row] = await server.database.db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
  if (!row) throw new Error("queueing failed");
  return row.id;
}

async function outboxRow(id: string) {
  const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!row) throw new Error(`mail ${id} is gone`);
  return row;
}

/** Makes queued mails due now, as if their retry delay had passed. */
async function makeDue(ids: string[]) {
  await server.database.db
    .update(mailOutbox)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(inArray(mailOutbox.id, ids));
}

const JAPANESE_TEXT = [
  "山田 花子 様",
  "",
  "縁結びをご利用いただきありがとうございます。パスワード再発行のお手続きが完了しましたので、新しいログイン情報をお送りします。",
  "ユーザーID: hanako01",
  "パスワード: Abc23defGh",
  "",
  "絵文字も届きます 💕🌸 — 「かぎ括弧」や全角記号（！？）、半角ｶﾅも。",
  "縁結び (Enmusubi)",
].join("\n");

const smtp = new TestSmtp();
let smtpPort: number;

beforeAll(async () => {
  smtpPort = await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});
afterEach(async () => {
  smtp.mode = "accept";
  smtp.received.length = 0;
  // Each test starts with an empty outbox.
  await server.database.db.delete(mailOutbox);
});

describe("mail outbox over SMTP", () => {
  it("delivers a queued mail with its recipient, subject and Japanese body intact, and marks it sent", async () => {
    const id = await queue({
      to: "hanako@example.jp",
      subject: "【縁結び】パスワード再発行のお知らせ",
      text: JAPANESE_TEXT,
    });
    expect(await deliver(transportTo(smtpPort))).toBe(1);

    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toEqual({
      mailFrom: "no-reply@enmusubi.local",
      rcptTo: ["hanako@example.jp"],
      from: "縁結び <no-reply@enmusubi.local>",
      to: "hanako@example.jp",
      subject: "【縁結び】パスワード再発行のお知らせ",
      text: JAPANESE_TEXT,
    });
    const row = await outboxRow(id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);

    // Sent is final: later sweeps send nothing more.
    await makeDue([id]);
    expect(await deliver(transportTo(smtpPort))).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("delivers the credentials mail a REST sign-up queues, and its credentials log in", async () => {
    const email = `smtp-signup-${Date.now()}@example.jp`;
    const signup = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      payload: { email, gender: "female" },
    });
    expect(signup.statusCode).toBe(201);
    expect(await deliver(transportTo(smtpPort))).toBe(1);

    const mail = smtp.received.find((m) => m.to === email);
    expect(mail?.subject).toContain("縁結び");
    const userID = /ユーザーID: (\S+)/.exec(mail?.text ?? "")?.[1];
    const password = /パスワード: (\S+)/.exec(mail?.text ?? "")?.[1];
    expect(userID).toBeTruthy();
    const login = await server.request({ method: "POST", url: "/api/auth/login", payload: { userID, password } });
    expect(login.statusCode).toBe(200);
    // Once sent, the outbox keeps no trace of the generated password.
    const [row] = await server.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(row).toMatchObject({ status: "sent", secret: null });
    expect(row?.text).not.toContain(password ?? "-");
  });

  it("keeps mail queued while the SMTP server is down, and delivers it exactly once when it is back", async () => {
    const port = await closedPort();
    const transport = transportTo(port);
    const ids = [
      await queue({ to: "a@example.jp", subject: "件名A", text: "本文A：こんにちは" }),
      await queue({ to: "b@example.jp", subject: "件名B", text: "本文B：よろしくお願いします" }),
      await queue({ to: "c@example.jp", subject: "件名C", text: "本文C：ありがとうございます" }),
    ];

    expect(await deliver(transport)).toBe(0);
    for (const id of ids) {
      const row = await outboxRow(id);
      expect(row).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
      // Backed off (30 s for the first retry), not retried in a tight loop.
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    }
    // Not due yet: a sweep right away does not even try.
    expect(await deliver(transport)).toBe(0);
    expect((await outboxRow(ids[0] ?? "")).attempts).toBe(1);

    // The server comes back on the same address; the retry delay has passed.
    const back = new TestSmtp();
    await back.start(port);
    try {
      await makeDue(ids);
      expect(await deliver(transport)).toBe(3);
      expect(back.received.map((m) => [m.to, m.subject, m.text]).sort()).toEqual([
        ["a@example.jp", "件名A", "本文A：こんにちは"],
        ["b@example.jp", "件名B", "本文B：よろしくお願いします"],
        ["c@example.jp", "件名C", "本文C：ありがとうございます"],
      ]);
      for (const id of ids) {
        expect(await outboxRow(id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
      }
      await makeDue(ids);
      expect(await deliver(transport)).toBe(0);
      expect(back.received).toHaveLength(3);
    } finally {
      await back.stop();
    }
  });

  it("treats a 4xx answer as a temporary failure and delivers on a later attempt", async () => {
    const transport = transportTo(smtpPort);
    const id = await queue({ to: "busy@example.jp", subject: "再送テスト", text: "混雑時の再送です。" });
    smtp.mode = "tempfail";
    expect(await deliver(transport)).toBe(0);
    let row = await outboxRow(id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
    expect(row.lastError).toMatch(/451/);
    expect(smtp.received).toHaveLength(0);

    await makeDue([id]);
    expect(await deliver(transport)).toBe(0);
    expect(await outboxRow(id)).toMatchObject({ status: "pending", attempts: 2 });

    smtp.mode = "accept";
    await makeDue([id]);
    expect(await deliver(transport)).toBe(1);
    row = await outboxRow(id);
    expect(row).toMatchObject({ status: "sent", attempts: 3, lastError: null });
    expect(smtp.received.map((m) => [m.to, m.subject, m.text])).toEqual([
      ["busy@example.jp", "再送テスト", "混雑時の再送です。"],
    ]);
  });

  it("gives up after the last attempt but keeps the mail and its error (nothing is silently lost)", async () => {
    const transport = transportTo(smtpPort);
    const id = await queue({ to: "never@example.jp", subject: "最後の試行", text: "届かないメール" });
    await server.database.db
      .update(mailOutbox)
      .set({ attempts: MAIL_MAX_ATTEMPTS - 1 })
      .where(eq(mailOutbox.id, id));
    smtp.mode = "tempfail";
    expect(await deliver(transport)).toBe(0);
    const row = await outboxRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS, to: "never@example.jp" });
    expect(row.lastError).toMatch(/451/);

    // A failed mail is not picked up again by the sweep.
    smtp.mode = "accept";
    await makeDue([id]);
    expect(await deliver(transport)).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it("two workers sweeping at once send each mail once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(await queue({ to: `w${i}@example.jp`, subject: `同時送信${i}`, text: `本文${i}` }));
    }
    const [a, b] = await Promise.all([deliver(transportTo(smtpPort)), deliver(transportTo(smtpPort))]);
    expect((a ?? 0) + (b ?? 0)).toBe(6);
    expect(smtp.received.map((m) => m.to).sort()).toEqual(ids.map((_, i) => `w${i}@example.jp`).sort());
    for (const id of ids) expect((await outboxRow(id)).status).toBe("sent");
  });
});

describe("mail files (SMTP_URL not set)", () => {
  it("writes each mail as an .eml file only its owner can read, in a directory only its owner can open", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-mail-files-"));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    // A directory an earlier version created world-readable is tightened too.
    mkdirSync(path.join(dataDir, "mail"), { mode: 0o755 });
    const transport = createMailTransport({ smtpUrl: undefined, from: FROM, dataDir }, server.app.log);
    await transport.send({
      id: "0000-file-test",
      to: "hanako@example.jp",
      subject: "【縁結び】パスワード再発行のお知らせ",
      text: "パスワード: Abc23defGh",
    });

    const dir = path.join(dataDir, "mail");
    const [name, ...others] = readdirSync(dir);
    expect(others).toEqual([]);
    expect(name).toMatch(/-0000-file-test\.eml$/);
    const file = path.join(dir, name ?? "");
    expect((statSync(file).mode & 0o777).toString(8)).toBe("600");
    expect((statSync(dir).mode & 0o777).toString(8)).toBe("700");
    expect(parseMessage(readFileSync(file, "utf8")).text).toBe("パスワード: Abc23defGh");
  });
});
