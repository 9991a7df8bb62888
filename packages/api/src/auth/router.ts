import { forgotInput, loginInput, profileUpdateInput, signupInput } from "@enmusubi/shared";
import { adminProcedure, authedProcedure, publicProcedure, router } from "../trpc";
import { forgotPassword, generateCredentials, login, me, signup, updateProfile } from "./service";

export const authRouter = router({
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => login(ctx, input, ctx.ip)),
  signup: publicProcedure.input(signupInput).mutation(({ ctx, input }) => signup(ctx, input, ctx.ip)),
  forgot: publicProcedure.input(forgotInput).mutation(({ ctx, input }) => forgotPassword(ctx, input, ctx.ip)),
  me: authedProcedure.query(({ ctx }) => me(ctx.db, ctx.session.id)),
  updateProfile: authedProcedure
    .input(profileUpdateInput)
    .mutation(({ ctx, input }) => updateProfile(ctx, ctx.session.id, input)),
  uniqueGenerate: adminProcedure.query(({ ctx }) => generateCredentials(ctx.db)),
});
