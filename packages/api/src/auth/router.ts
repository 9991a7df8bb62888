import { forgotInput, loginInput, signupInput } from "@enmusubi/shared";
import { generateCredentials } from "../accounts/create-account";
import { adminProcedure, publicProcedure, router } from "../trpc";
import { forgotPassword, login, signup } from "./service";

export const authRouter = router({
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => login(ctx, input, ctx.ip)),
  signup: publicProcedure.input(signupInput).mutation(({ ctx, input }) => signup(ctx, input, ctx.ip)),
  forgot: publicProcedure.input(forgotInput).mutation(({ ctx, input }) => forgotPassword(ctx, input, ctx.ip)),
  /** Admin add-user: a fresh unused userID and a generated password. */
  uniqueGenerate: adminProcedure.query(({ ctx }) => generateCredentials(ctx.db)),
});
