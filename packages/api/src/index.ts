/*
 * What the other packages use (apps/server, its tests and CLI, the web app's types), nothing more:
 * a service function another package needs is exported here when it is first used there.
 * Test data: `@enmusubi/api/testing`.
 */
export { createAccount } from "./accounts/create-account";
export { createPasswordHasher, generatePassword, type PasswordHasher } from "./auth/password";
export { resolveSession } from "./auth/session";
export { createTokenService } from "./auth/tokens";
export type { BackgroundJob } from "./background-job";
export { createContext, createContextInner } from "./context";
export type { ApiDeps, Session } from "./deps";
export { AppError, invalidInput, isInputDatabaseError, toTRPCError } from "./errors";
export { backgroundJobs } from "./jobs";
export { renderMail } from "./mail/outbox";
export { createMemoryMailboxEvents, type MailboxEvents, type MemberChange } from "./messages/events";
export { sendDueNotices } from "./notices/job";
export { sendAllDueNotices } from "./notices/jobs";
export { createLinkSigner, type LinkSigner } from "./notices/links";
export { checkSimulatedCardRequest, simulateCardResult } from "./payments/card-notification";
export { CARD_EVENTS, type CardEvent, cardUrls } from "./payments/providers/card";
export { CARD_TEST_NUMBER_DECLINED, CARD_TEST_NUMBER_OK } from "./payments/providers/card-simulator";
export {
  CARD_SIMULATOR_PATH,
  cardIsSimulators,
  configureCardForSimulator,
  configureSmartPitForSimulator,
  SIMULATOR_CARD_MERCHANT_ID,
  SIMULATOR_SMARTPIT_ID,
  smartPitIsSimulators,
} from "./payments/simulator-settings";
export { simulateStorePayment } from "./payments/smart-pit-notification";
export { createRecordingSms, type SmsSender } from "./phone/sms";
export { photoAwaitingReview } from "./photos/service";
export { createPhotoUrlSigner, type PhotoUrlSigner } from "./photos/signed-url";
export { ensureThumbnail, PHOTO_NAME, thumbnailLink } from "./photos/storage";
export { resolveSessionWithOwnView } from "./profile/service";
export type { OwnReview, OwnReviewState } from "./profile-review/own";
export { forgetReferenceList, REFERENCE_CHANNEL, REFERENCE_LISTS, type ReferenceList } from "./reference/cache";
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from "./root";
export { ScreeningRules } from "./screening/rules";
export { createDatabaseRateLimiter, type RateLimiter, unlimited } from "./security/rate-limit";
export type { UserView } from "./users/user-view";
