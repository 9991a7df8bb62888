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
  cachedAnnualIncomes,
  cachedOccupations,
  cachedPointCosts,
  createAnnualIncome,
  createOccupation,
  createPointCost,
  deleteAnnualIncome,
  deleteOccupation,
  deletePointCost,
  pointCostsFor,
  updatePointCost,
} from "./service";

/**
 * The lists are open (spec §6: fetched without a token) and answered from this process's copy
 * (cache.ts; a fresh array of the shared frozen rows); every change is for administrators.
 */
export const referenceRouter = router({
  occupations: router({
    list: publicProcedure.query(async ({ ctx }) => [...(await cachedOccupations(ctx.db))]),
    create: adminProcedure
      .input(occupationCreateInput)
      .mutation(({ ctx, input }) => createOccupation(ctx.db, ctx.session.id, input)),
    delete: adminProcedure.input(referenceIdInput).mutation(async ({ ctx, input }) => {
      await deleteOccupation(ctx.db, ctx.session.id, input.id);
      return { success: true as const };
    }),
  }),
  annualIncomes: router({
    list: publicProcedure.query(async ({ ctx }) => [...(await cachedAnnualIncomes(ctx.db))]),
    create: adminProcedure
      .input(annualIncomeCreateInput)
      .mutation(({ ctx, input }) => createAnnualIncome(ctx.db, ctx.session.id, input)),
    delete: adminProcedure.input(referenceIdInput).mutation(async ({ ctx, input }) => {
      await deleteAnnualIncome(ctx.db, ctx.session.id, input.id);
      return { success: true as const };
    }),
  }),
  pointCosts: router({
    // Members (and anyone signed out) see the prices the product charges; administrators every row.
    list: publicProcedure.query(async ({ ctx }) => pointCostsFor(await cachedPointCosts(ctx.db), ctx.session)),
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
