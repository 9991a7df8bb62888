import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SmsSender } from "@enmusubi/api";
import type { FastifyBaseLogger } from "fastify";

/** How long the provider may take to accept a message before the send counts as failed. */
export const SMS_HTTP_TIMEOUT_MS = 10_000;

/**
 * The SMS provider (decision 0048): with `SMS_API_URL` an HTTP adapter, one `POST` per message with
 * the JSON body `{ "to": "+819012345678", "text": "…" }` and `Authorization: Bearer SMS_API_KEY`;
 * any 2xx answer is a sent message, anything else (another status, a network error, no answer
 * within SMS_HTTP_TIMEOUT_MS) fails the send. Without it, the development sink: each message
 * becomes a text file under `DATA_DIR/sms` and a log line, as mail does under `DATA_DIR/mail`
 * (jobs/mail-outbox.ts). The messages carry codes: the directory is the owner's only (0700) and
 * each file readable by the owner only (0600). Production refuses the sink unless SMS_DEV_SINK
 * allows it (config.ts `assertSafeForEnv`).
 */
export function createSmsSender(
  options: { url: string | undefined; apiKey: string | undefined; dataDir: string },
  log: FastifyBaseLogger,
): SmsSender {
  const { url, apiKey } = options;
  if (url) {
    return {
      async send(message) {
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
          },
          body: JSON.stringify({ to: message.to, text: message.text }),
          signal: AbortSignal.timeout(SMS_HTTP_TIMEOUT_MS),
        });
        // The body is read (and dropped) so the connection can be reused.
        await response.arrayBuffer().catch(() => undefined);
        if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
      },
    };
  }
  const dir = path.join(options.dataDir, "sms");
  return {
    async send(message) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.txt`);
      writeFileSync(file, `To: ${message.to}\n\n${message.text}\n`, { mode: 0o600, flag: "wx" });
      log.info({ to: message.to, file }, "SMS written to file (SMS_API_URL not set)");
    },
  };
}
