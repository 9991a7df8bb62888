import { AUTH_MSG } from "@enmusubi/shared/messages/auth";
import { trpcClient } from "../lib/api-providers";
import { type Session, saveSession } from "../lib/session";
import { errorMessage } from "../lib/trpc";

/** Signs in and keeps the session; loaded by /login on submit (see lib/api-providers). */
export async function signIn(input: { userID: string; password: string }): Promise<Session | { error: string }> {
  try {
    const session = await trpcClient.auth.login.mutate(input);
    saveSession(session);
    return session;
  } catch (error) {
    return { error: errorMessage(error, AUTH_MSG.loginFailed) };
  }
}
