import { MSG } from "@enmusubi/shared";
import { z } from "zod";
import { paidProcedure } from "../points/paid-procedure";
import { memberProcedure, router } from "../trpc";
import { listFootprints, viewProfile } from "./service";

const memberIdInput = z.object({ id: z.uuid({ error: MSG.notFound }) });

/** Members seen by members: always through the public profile shape. */
export const membersRouter = router({
  /** A profile's detail: costs profile_view (free again within 24 hours). A mutation: it charges. */
  viewProfile: paidProcedure("profile_view")
    .input(memberIdInput)
    .mutation(({ ctx, input }) => viewProfile(ctx.db, ctx.charge, ctx.session.id, input.id)),
  footprints: memberProcedure.query(({ ctx }) => listFootprints(ctx.db, ctx.session.id)),
});
