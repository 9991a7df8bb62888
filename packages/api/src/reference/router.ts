import {
  annualIncomeCreateInput,
  occupationCreateInput,
  pointCostCreateInput,
  pointCostKeyInput,
  pointCostUpdateInput,
  referenceIdInput,
} from "@enmusubi/shared";
import { adminProcedure, publicProcedure, router } from "../trpc";
import {
  createAnnualIncome,
  createOccupation,
  createPointCost,
  deleteAnnualIncome,
  deleteOccupation,
  deletePointCost,
  listAnnualIncomes,
  listOccupations,
  listPointCosts,
  updatePointCost,
} from "./service";

/** The lists are open (spec §6: fetched without a token); every change is for administrators. */
export const referenceRouter = router({
  occupations: router({
    list: publicProcedure.query(({ ctx }) => listOccupations(ctx.db)),
    create: adminProcedure
      .input(occupationCreateInput)
      .mutation(({ ctx, input }) => createOccupation(ctx.db, ctx.session.id, input)),
    delete: adminProcedure.input(referenceIdInput).mutation(async ({ ctx, input }) => {
      await deleteOccupation(ctx.db, ctx.session.id, input.id);
      return { success: true as const };
    }),
  }),
  annualIncomes: router({
    list: publicProcedure.query(({ ctx }) => listAnnualIncomes(ctx.db)),
    create: adminProcedure
      .input(annualIncomeCreateInput)
      .mutation(({ ctx, input }) => createAnnualIncome(ctx.db, ctx.session.id, input)),
    delete: adminProcedure.input(referenceIdInput).mutation(async ({ ctx, input }) => {
      await deleteAnnualIncome(ctx.db, ctx.session.id, input.id);
      return { success: true as const };
    }),
  }),
  pointCosts: router({
    list: publicProcedure.query(({ ctx }) => listPointCosts(ctx.db)),
    update: adminProcedure
      .input(pointCostUpdateInput)
      .mutation(({ ctx, input }) => updatePointCost(ctx.db, ctx.session.id, input)),
    create: adminProcedure
      .input(pointCostCreateInput)
      .mutation(({ ctx, input }) => createPointCost(ctx.db, ctx.session.id, input)),
    delete: adminProcedure.input(pointCostKeyInput).mutation(async ({ ctx, input }) => {
      await deletePointCost(ctx.db, ctx.session.id, input.actionName);
      return { success: true as const };
    }),
  }),
});
