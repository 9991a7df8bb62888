import { AppError, simulateStorePayment } from "@enmusubi/api";
import { MSG, text } from "@enmusubi/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

/**
 * Development only (SMARTPIT_SIMULATOR, never in production): `POST /dev/smartpit/pay`
 * `{ transactionId }` plays SmartPit's side of a store payment: it signs the notification with the
 * stored API key and sends it through the real notify route, so the whole path can be tried by hand.
 * Outside /api on purpose: it is not part of the published API.
 */
export function registerSmartPitSimulator(app: FastifyInstance): void {
  app.post("/dev/smartpit/pay", async (request, reply) => {
    const parsed = z.object({ transactionId: text({ max: 64, required: MSG.badRequest }) }).safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ message: MSG.badRequest });
    let notification: Awaited<ReturnType<typeof simulateStorePayment>>;
    try {
      notification = await simulateStorePayment(app.deps.db, parsed.data.transactionId);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND")
        return reply.status(404).send({ message: MSG.notFound });
      throw error;
    }
    const answer = await app.inject({
      method: "POST",
      url: "/api/payments/smartpit/notify",
      payload: notification.rawBody,
      headers: notification.headers,
    });
    return reply.status(answer.statusCode).type("application/json").send(answer.body);
  });
}
