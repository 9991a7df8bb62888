import { loginBonusSettingInput, phoneCodeConfirmInput, phoneCodeRequestInput, userIdInput } from "@enmusubi/shared";
import { adminProcedure, memberProcedure, router } from "../trpc";
import { adminPhoneState, bonusSettingsView, clearPhone, saveBonusSettings } from "./admin";
import { confirmPhoneCode, phoneStatus, requestPhoneCode } from "./verification";

/** The member's phone verification by SMS (decision 0048). */
export const phoneRouter = router({
  /** Verified or not, the code waiting, the resend wait, and what verifying unlocks. */
  status: memberProcedure.query(({ ctx }) => phoneStatus(ctx.db, ctx.session.id)),
  requestCode: memberProcedure
    .input(phoneCodeRequestInput)
    .mutation(({ ctx, input }) => requestPhoneCode(ctx, ctx.session.id, input)),
  /** The sign-up bonus it grants shows in the header at once (the member's live stream). */
  confirmCode: memberProcedure.input(phoneCodeConfirmInput).mutation(async ({ ctx, input }) => {
    const result = await confirmPhoneCode(ctx, ctx.session.id, input);
    if (result.signupBonusPoints > 0) ctx.mailbox.publish([ctx.session.id], "balance");
    return result;
  }),
});

/** Phone verification in user management, and the login bonus setting (decision 0048). */
export const adminPhoneRouter = router({
  state: adminProcedure.input(userIdInput).query(({ ctx, input }) => adminPhoneState(ctx.db, input.id)),
  clear: adminProcedure.input(userIdInput).mutation(({ ctx, input }) => clearPhone(ctx.db, ctx.session.id, input.id)),
  bonusSettings: adminProcedure.query(({ ctx }) => bonusSettingsView(ctx.db)),
  saveBonusSettings: adminProcedure
    .input(loginBonusSettingInput)
    .mutation(({ ctx, input }) => saveBonusSettings(ctx.db, ctx.session.id, input)),
});
