export { createAccount, generateCredentials, type NewAccount } from "./accounts/create-account";
export { createPasswordHasher, generatePassword, generateUserId, type PasswordHasher } from "./auth/password";
export { createTokenService, type TokenService } from "./auth/tokens";
export { type ApiDeps, type Context, createContext, createContextInner, resolveSession, type Session } from "./context";
export {
  AppError,
  type AppErrorCode,
  invalidInput,
  isInputDatabaseError,
  publicMessage,
  toTRPCError,
} from "./errors";
export { type BackgroundJob, backgroundJobs, type JobLog } from "./jobs";
export { renderMail } from "./mail/outbox";
export { createMemoryMailboxEvents, type MailboxEvents } from "./messages/events";
export { simulateSmartPitPayment } from "./payments/providers/smart-pit-simulator";
export { simulateStorePayment } from "./payments/smart-pit-notification";
export { changeBalance, setBalance } from "./points/ledger";
export { prepayAction, refundExpiredPrepaid } from "./points/prepaid";
export { forgetReferenceList, REFERENCE_CHANNEL, REFERENCE_LISTS, type ReferenceList } from "./reference/cache";
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from "./root";
export { createDatabaseRateLimiter, type RateLimiter, unlimited } from "./security/rate-limit";
export { getOwnUserView, getUserView, selectUsers, toUserView, type UserView } from "./users/user-view";
