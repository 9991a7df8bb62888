import {
  adminUserCreateInput,
  adminUserExportInput,
  adminUserExportPageInput,
  adminUserLegacyUpdateInput,
  adminUserListInput,
  adminUserUpdateInput,
  sendPointsUpdateInput,
  userIdInput,
  withdrawnListInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { listWithdrawn, restoreWithdrawn } from "../accounts/withdrawn-admin";
import { adminProcedure, router } from "../trpc";
import { startUsersExport, usersExportPage } from "./admin-export";
import { type ListedUser, listUsers } from "./admin-list";
import { createUser, deleteUser, updateSendPoints, updateUser, updateUserLegacy, userLedger } from "./admin-service";
import { getUser } from "./user-version";
import { withPhotoUrl } from "./user-view";

/** Every user answered to administrators carries `photoUrl`, the full-size photo signed (decision 0028). */
export const adminUsersRouter = router({
  list: adminProcedure.input(adminUserListInput).query(async ({ ctx, input }) => {
    const page = await listUsers(ctx.db, input);
    // Each row is a fresh view: completed in place (decision 0037).
    for (const user of page.users) withPhotoUrl(ctx.photoUrls, user);
    return page as typeof page & { users: Array<ListedUser & { photoUrl: string | null }> };
  }),
  /** One user with its version (the REST ETag an edit may state). */
  get: adminProcedure
    .input(userIdInput)
    .query(async ({ ctx, input }) => withPhotoUrl(ctx.photoUrls, await getUser(ctx.db, input.id))),
  create: adminProcedure
    .input(adminUserCreateInput)
    .mutation(async ({ ctx, input }) => withPhotoUrl(ctx.photoUrls, await createUser(ctx, ctx.session.id, input))),
  /** A balance it sets shows in the member's header at once (their live stream, decision 0031). */
  update: adminProcedure.input(adminUserUpdateInput).mutation(async ({ ctx, input }) => {
    const user = await updateUser(ctx, ctx.session.id, input);
    ctx.mailbox.publish([input.id], "balance");
    return withPhotoUrl(ctx.photoUrls, user);
  }),
  /** The legacy PUT /api/admin/users/{id}: If-Match versions, or balances set as they are now. */
  updateLegacy: adminProcedure.input(adminUserLegacyUpdateInput).mutation(async ({ ctx, input }) => {
    const user = await updateUserLegacy(ctx, ctx.session.id, input);
    ctx.mailbox.publish([input.id], "balance");
    return withPhotoUrl(ctx.photoUrls, user);
  }),
  updateSendPoints: adminProcedure
    .input(sendPointsUpdateInput)
    .mutation(async ({ ctx, input }) =>
      withPhotoUrl(ctx.photoUrls, await updateSendPoints(ctx.db, ctx.session.id, input)),
    ),
  delete: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    await deleteUser(ctx, ctx.session.id, input.id);
    // The member's open live-count streams end (every instance hears the mailbox channel).
    ctx.mailbox.publish([input.id]);
    return { success: true as const };
  }),
  /**
   * A CSV export of the list's filter starts here: it is written to the audit log and answers the
   * file's first line (BOM, headings); `exportPage` then answers the members, 1,000 at a time.
   */
  exportStart: adminProcedure
    .input(adminUserExportInput)
    .mutation(async ({ ctx, input }) => ({ header: await startUsersExport(ctx.db, ctx.session.id, input) })),
  exportPage: adminProcedure.input(adminUserExportPageInput).query(({ ctx, input }) => usersExportPage(ctx.db, input)),
  /** Members who withdrew (退会), newest first, with the end of their retention (decision 0034). */
  withdrawn: adminProcedure.input(withdrawnListInput).query(({ ctx, input }) => listWithdrawn(ctx.db, input)),
  /** Restores a withdrawn member within the retention (audited); their forfeited balance comes back. */
  restore: adminProcedure
    .input(userIdInput)
    .mutation(({ ctx, input }) => restoreWithdrawn(ctx.db, ctx.session.id, input.id)),
  ledger: adminProcedure
    .input(userIdInput.extend({ limit: z.number().int().min(1).max(500).default(50) }))
    .query(({ ctx, input }) => userLedger(ctx.db, input)),
});
