import {
  adminUserCreateInput,
  adminUserLegacyUpdateInput,
  adminUserListInput,
  adminUserUpdateInput,
  sendPointsUpdateInput,
  userIdInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { adminProcedure, router } from "../trpc";
import { listUsers } from "./admin-list";
import { createUser, deleteUser, updateSendPoints, updateUser, updateUserLegacy, userLedger } from "./admin-service";
import { getUser } from "./user-version";

export const adminUsersRouter = router({
  list: adminProcedure.input(adminUserListInput).query(({ ctx, input }) => listUsers(ctx.db, input)),
  /** One user with its version (the REST ETag an edit may state). */
  get: adminProcedure.input(userIdInput).query(({ ctx, input }) => getUser(ctx.db, input.id)),
  create: adminProcedure
    .input(adminUserCreateInput)
    .mutation(({ ctx, input }) => createUser(ctx, ctx.session.id, input)),
  update: adminProcedure
    .input(adminUserUpdateInput)
    .mutation(({ ctx, input }) => updateUser(ctx, ctx.session.id, input)),
  /** The legacy PUT /api/admin/users/{id}: If-Match versions, or balances set as they are now. */
  updateLegacy: adminProcedure
    .input(adminUserLegacyUpdateInput)
    .mutation(({ ctx, input }) => updateUserLegacy(ctx, ctx.session.id, input)),
  updateSendPoints: adminProcedure
    .input(sendPointsUpdateInput)
    .mutation(({ ctx, input }) => updateSendPoints(ctx.db, ctx.session.id, input)),
  delete: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    await deleteUser(ctx, ctx.session.id, input.id);
    // The member's open live-count streams end (every instance hears the mailbox channel).
    ctx.mailbox.publish([input.id]);
    return { success: true as const };
  }),
  ledger: adminProcedure
    .input(userIdInput.extend({ limit: z.number().int().min(1).max(500).default(50) }))
    .query(({ ctx, input }) => userLedger(ctx.db, input)),
});
