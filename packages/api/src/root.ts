import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { accountRouter } from "./accounts/router";
import { adminAuditRouter } from "./audit/router";
import { authRouter } from "./auth/router";
import { adminBoardRouter } from "./board/admin-router";
import { boardRouter } from "./board/router";
import { adminDashboardRouter } from "./dashboard/router";
import { adminInquiriesRouter, inquiriesRouter } from "./inquiries/router";
import { membersRouter } from "./members/router";
import { adminMessagesRouter, messagesRouter } from "./messages/router";
import { adminPaymentsRouter, legalRouter, purchaseRouter } from "./payments/router";
import { adminPhoneRouter, phoneRouter } from "./phone/router";
import { photosRouter } from "./photos/router";
import { pointsRouter } from "./points/router";
import { profileRouter } from "./profile/router";
import { adminProfileReviewRouter } from "./profile-review/router";
import { referenceRouter } from "./reference/router";
import { adminModerationRouter, safetyRouter } from "./safety/router";
import { scheduledRouter } from "./scheduled/router";
import { adminScreeningRouter } from "./screening/router";
import { createCallerFactory, router } from "./trpc";
import { adminUsersRouter } from "./users/admin-router";
import { adminVerificationRouter, verificationRouter } from "./verification/router";

export const appRouter = router({
  auth: authRouter,
  profile: profileRouter,
  account: accountRouter,
  members: membersRouter,
  messages: messagesRouter,
  adminMessages: adminMessagesRouter,
  adminUsers: adminUsersRouter,
  points: pointsRouter,
  photos: photosRouter,
  reference: referenceRouter,
  scheduled: scheduledRouter,
  board: boardRouter,
  adminBoard: adminBoardRouter,
  legal: legalRouter,
  purchase: purchaseRouter,
  adminPayments: adminPaymentsRouter,
  safety: safetyRouter,
  adminModeration: adminModerationRouter,
  verification: verificationRouter,
  adminVerification: adminVerificationRouter,
  inquiries: inquiriesRouter,
  adminInquiries: adminInquiriesRouter,
  adminAudit: adminAuditRouter,
  adminDashboard: adminDashboardRouter,
  adminScreening: adminScreeningRouter,
  adminProfileReview: adminProfileReviewRouter,
  phone: phoneRouter,
  adminPhone: adminPhoneRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
