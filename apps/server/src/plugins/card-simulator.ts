import {
  AppError,
  CARD_SIMULATOR_PATH,
  CARD_TEST_NUMBER_DECLINED,
  CARD_TEST_NUMBER_OK,
  type CardEvent,
  checkSimulatedCardRequest,
  simulateCardResult,
} from "@enmusubi/api";
import { MSG, text } from "@enmusubi/shared";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";

/**
 * Development only (CARD_SIMULATOR, never in production; decision 0046): the card processor's side.
 * - `GET /dev/card/checkout?<signed request>`: the hosted payment page. The request's signature is
 *   checked with the stored merchant secret, as the processor would; the page takes a test card
 *   number: 4111 1111 1111 1111 succeeds, 4000 0000 0000 0002 is declined; キャンセル gives up.
 * - `POST /dev/card/checkout`: pays (or declines, or gives up): the signed notification is sent
 *   through the real notification route, then the member is sent back to the request's return URL.
 * - `POST /dev/card/refund` `{ transactionId }`: the processor's refund of a paid order, notified.
 * Outside /api on purpose: not part of the published API.
 */

const html = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

function page(body: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>カード決済（開発用シミュレーター）</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; padding: 16px; color: #1a1a1a; background: #fff; line-height: 1.6; }
main { max-width: 480px; margin: 0 auto; }
h1 { font-size: 1.25rem; margin: 0 0 12px; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 16px; }
dt { font-weight: bold; }
dd { margin: 0; overflow-wrap: anywhere; }
label { display: block; font-weight: bold; margin-bottom: 4px; }
input { box-sizing: border-box; width: 100%; min-height: 44px; font-size: 1rem; padding: 10px; border: 1px solid #555; border-radius: 4px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 16px; }
button { font-size: 1rem; padding: 10px 16px; min-height: 44px; border-radius: 4px; border: 1px solid #1c4f8c; cursor: pointer; }
.pay { background: #1c4f8c; color: #fff; }
.cancel { background: #fff; color: #1c4f8c; }
.error { color: #b00020; font-weight: bold; }
.note { font-size: 0.875rem; color: #444; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

type Fields = NonNullable<Awaited<ReturnType<typeof checkSimulatedCardRequest>>>;

function checkoutPage(fields: Fields, error?: string): string {
  const hidden = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${html(k)}" value="${html(v)}">`)
    .join("\n");
  return page(`<h1>カード決済</h1>
<p class="note">開発用シミュレーターです。実際の請求は発生しません。</p>
<dl>
<dt>ご注文番号</dt><dd>${html(fields.order_id)}</dd>
<dt>お支払い金額</dt><dd>${Number(fields.amount).toLocaleString("ja-JP")}円</dd>
</dl>
<form method="post" action="${CARD_SIMULATOR_PATH}">
${hidden}
${error ? `<p class="error" role="alert" id="card-error">${html(error)}</p>` : ""}
<label for="card-number">カード番号</label>
<input id="card-number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23"${error ? ' aria-describedby="card-error" aria-invalid="true"' : ""}>
<p class="note">テスト用カード番号：成功 4111 1111 1111 1111 ／ 拒否 4000 0000 0000 0002</p>
<div class="actions">
<button class="pay" type="submit" name="action" value="pay">支払う</button>
<button class="cancel" type="submit" name="action" value="cancel">キャンセル</button>
</div>
</form>`);
}

function refusedPage(reply: FastifyReply) {
  return reply
    .status(400)
    .type("text/html; charset=utf-8")
    .send(page(`<h1>カード決済</h1><p class="error" role="alert">決済リクエストの署名を確認できませんでした。</p>`));
}

export async function registerCardSimulator(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get(CARD_SIMULATOR_PATH, async (request, reply) => {
      const fields = await checkSimulatedCardRequest(app.deps.db, (request.query ?? {}) as Record<string, unknown>);
      if (!fields) return refusedPage(reply);
      return reply.type("text/html; charset=utf-8").send(checkoutPage(fields));
    });

    scope.post(CARD_SIMULATOR_PATH, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const fields = await checkSimulatedCardRequest(app.deps.db, body);
      if (!fields) return refusedPage(reply);
      const number = typeof body.card_number === "string" ? body.card_number.replace(/[\s-]/g, "") : "";
      let event: CardEvent;
      if (body.action === "cancel") event = "payment.failed";
      else if (number === CARD_TEST_NUMBER_OK) event = "payment.captured";
      else if (number === CARD_TEST_NUMBER_DECLINED) event = "payment.failed";
      else {
        return reply
          .status(400)
          .type("text/html; charset=utf-8")
          .send(checkoutPage(fields, "テスト用のカード番号を入力してください。"));
      }
      const notification = await simulateCardResult(app.deps.db, fields.order_id, event);
      await app.inject({
        method: "POST",
        url: new URL(fields.notify_url).pathname,
        payload: notification.rawBody,
        headers: notification.headers,
      });
      const back = new URL(fields.return_url);
      back.searchParams.set("result", event === "payment.captured" ? "success" : "failure");
      return reply.redirect(back.toString(), 303);
    });

    scope.post("/dev/card/refund", async (request, reply) => {
      const parsed = z.object({ transactionId: text({ max: 64, required: MSG.badRequest }) }).safeParse(request.body);
      if (!parsed.success) return reply.status(400).send({ message: MSG.badRequest });
      let notification: Awaited<ReturnType<typeof simulateCardResult>>;
      try {
        notification = await simulateCardResult(app.deps.db, parsed.data.transactionId, "refund.completed");
      } catch (error) {
        if (error instanceof AppError && error.code === "NOT_FOUND")
          return reply.status(404).send({ message: MSG.notFound });
        throw error;
      }
      const answer = await app.inject({
        method: "POST",
        url: "/api/payments/card/notify",
        payload: notification.rawBody,
        headers: notification.headers,
      });
      return reply.status(answer.statusCode).type("application/json").send(answer.body);
    });
  });
}
