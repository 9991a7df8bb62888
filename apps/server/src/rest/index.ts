import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { assertSafeForEnv } from "../config";
import { registerCardSimulator } from "../plugins/card-simulator";
import { registerSmartPitSimulator } from "../plugins/smartpit-simulator";
import { accountRoutes } from "./account";
import { type RestRoute, registerRoutes } from "./adapter";
import { adminPaymentRoutes } from "./admin-payments";
import { authRoutes } from "./auth";
import { boardRoutes } from "./board";
import { conversationRoutes } from "./conversations";
import { dashboardRoutes } from "./dashboard";
import { inquiryRoutes } from "./inquiries";
import { memberRoutes } from "./members";
import { messageRoutes } from "./messages";
import { buildOpenApiDocument } from "./openapi";
import { paymentRoutes } from "./payments";
import { phoneRoutes } from "./phone";
import { photoRoutes } from "./photos";
import { profileReviewRoutes } from "./profile-reviews";
import { referenceRoutes } from "./reference";
import { safetyRoutes } from "./safety";
import { scheduledRoutes } from "./scheduled";
import { screeningRoutes } from "./screening";
import { settingsRoutes } from "./settings";
import { userRoutes } from "./users";
import { verificationRoutes } from "./verification";

/** Every legacy route, domain by domain. */
export const restRoutes: RestRoute[] = [
  ...authRoutes,
  ...accountRoutes,
  ...settingsRoutes,
  ...phoneRoutes,
  ...userRoutes,
  ...memberRoutes,
  ...referenceRoutes,
  ...photoRoutes,
  ...conversationRoutes,
  ...messageRoutes,
  ...scheduledRoutes,
  ...paymentRoutes,
  ...adminPaymentRoutes,
  ...boardRoutes,
  ...screeningRoutes,
  ...inquiryRoutes,
  ...verificationRoutes,
  ...profileReviewRoutes,
  ...safetyRoutes,
  ...dashboardRoutes,
];

export async function registerRest(app: FastifyInstance): Promise<void> {
  registerRoutes(app, restRoutes);
  if (app.config.smartPitSimulator) {
    // Never in production: refused at start-up (config.ts), and here again should a config slip through.
    assertSafeForEnv(app.config);
    registerSmartPitSimulator(app);
  }
  if (app.config.cardSimulator) {
    // Never in production: refused at start-up (config.ts), and here again (decision 0046).
    assertSafeForEnv(app.config);
    await registerCardSimulator(app);
  }
  const document = buildOpenApiDocument(restRoutes, { version: "1.0.0", serverUrl: app.config.publicUrl });
  app.get("/api/openapi.json", async () => document);
  await app.register(swagger, { mode: "static", specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    uiConfig: { docExpansion: "list", deepLinking: true, showExtensions: true },
  });
}
