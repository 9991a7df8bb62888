export { createPasswordHasher, generatePassword, generateUserId, type PasswordHasher } from "./auth/password";
export { writeOpeningBalances } from "./auth/service";
export { createTokenService, type TokenService } from "./auth/tokens";
export { type ApiDeps, type Context, createContext, createContextInner, resolveSession, type Session } from "./context";
export { AppError, type AppErrorCode, toTRPCError } from "./errors";
export { changeBalance, chargeAction, prepayAction, refundExpiredPrepaid, setBalance } from "./points/ledger";
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from "./root";
export { createMemoryRateLimiter, type RateLimiter, unlimited } from "./security/rate-limit";
export { getOwnUserView, getUserView, selectUsers, toUserView, type UserView } from "./users/user-view";
