import { forgotInput, joinInput, loginInput, signupInput } from "@enmusubi/shared";
import { generateCredentials } from "../accounts/create-account";
import { adminProcedure, publicProcedure, router } from "../trpc";
import { forgotPassword, login, signup } from "./service";

export const authRouter = router({
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => login(ctx, input, ctx.ip)),
  /** The legacy sign-up (REST): e-mail and gender; the member is asked to consent at the first sign-in. */
  signup: publicProcedure.input(signupInput).mutation(({ ctx, input }) => signup(ctx, input, ctx.ip)),
  /** The sign-up screen's: consent to the terms and the privacy policy and the 18+ declaration required (decision 0034). */
  join: publicProcedure.input(joinInput).mutation(({ ctx, input }) => signup(ctx, input, ctx.ip)),
  forgot: publicProcedure.input(forgotInput).mutation(({ ctx, input }) => forgotPassword(ctx, input, ctx.ip)),
  /** Admin add-user: a fresh unused userID and a generated password. */
  uniqueGenerate: adminProcedure.query(({ ctx }) => generateCredentials(ctx.db)),
});
