import { MSG, pointCostCreateInput, pointCostUpdateInput } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { withNumbers } from "./coerce";

/**
 * Reference lists (spec §7): open GETs, admin changes. Legacy field names are kept as spelled
 * (`occupaionName`, `annualIncome`, `annualIncomeRange`).
 */

const legacyOccupation = z.object({ _id: z.string(), occupaionName: z.string() });
const legacyAnnualIncome = z.object({ _id: z.string(), annualIncome: z.string() });
const legacyPointCost = z.object({
  actionName: z.string(),
  displayName: z.string(),
  pointCost: z.number().int(),
  description: z.string(),
  maxCost: z.number().int(),
});
const message = z.object({ message: z.string() });

const toOccupation = (o: { id: string; name: string }) => ({ _id: o.id, occupaionName: o.name });
const toAnnualIncome = (i: { id: string; label: string }) => ({ _id: i.id, annualIncome: i.label });

export const referenceRoutes = [
  route({
    method: "GET",
    path: "/api/occupations",
    summary: "Occupations in display order (no token needed)",
    auth: false,
    response: z.array(legacyOccupation),
    handler: async (caller) => (await caller.reference.occupations.list()).map(toOccupation),
  }),
  route({
    method: "POST",
    path: "/api/occupations",
    summary: "Admin: add an occupation; answers the created entry",
    auth: true,
    input: z.object({ occupaionName: z.string({ error: MSG.occupationRequired }) }),
    response: legacyOccupation,
    status: 201,
    handler: async (caller, input) =>
      toOccupation(await caller.reference.occupations.create({ name: input.occupaionName })),
  }),
  route({
    method: "DELETE",
    path: "/api/occupations/:id",
    summary: "Admin: delete an occupation (members who chose it keep an unset occupation)",
    auth: true,
    input: z.object({ id: z.string() }),
    response: message,
    handler: async (caller, input) => {
      await caller.reference.occupations.delete(input);
      return { message: MSG.occupationDeleted };
    },
  }),
  route({
    method: "GET",
    path: "/api/annual-incomes",
    summary: "Annual-income ranges in display order (no token needed)",
    auth: false,
    response: z.array(legacyAnnualIncome),
    handler: async (caller) => (await caller.reference.annualIncomes.list()).map(toAnnualIncome),
  }),
  route({
    method: "POST",
    path: "/api/annual-incomes",
    summary: "Admin: add an annual-income range; answers the created entry",
    auth: true,
    input: z.object({ annualIncomeRange: z.string({ error: MSG.annualIncomeRequired }) }),
    response: legacyAnnualIncome,
    status: 201,
    handler: async (caller, input) =>
      toAnnualIncome(await caller.reference.annualIncomes.create({ label: input.annualIncomeRange })),
  }),
  route({
    method: "DELETE",
    path: "/api/annual-incomes/:id",
    summary: "Admin: delete an annual-income range",
    auth: true,
    input: z.object({ id: z.string() }),
    response: message,
    handler: async (caller, input) => {
      await caller.reference.annualIncomes.delete(input);
      return { message: MSG.annualIncomeDeleted };
    },
  }),
  route({
    method: "GET",
    path: "/api/point-costs",
    summary: "Point costs with the cap each may not exceed (no token needed)",
    auth: false,
    response: z.array(legacyPointCost),
    handler: (caller) => caller.reference.pointCosts.list(),
  }),
  route({
    method: "PUT",
    path: "/api/point-costs/:actionName",
    summary: "Admin: edit pointCost, displayName, description; never above the legal initial fee",
    auth: true,
    input: z.preprocess(withNumbers(["pointCost"]), pointCostUpdateInput),
    response: legacyPointCost,
    handler: (caller, input) => caller.reference.pointCosts.update(input),
  }),
  route({
    method: "POST",
    path: "/api/point-costs",
    summary: "Admin: add an action (pointCost defaults to 5)",
    auth: true,
    input: z.preprocess(withNumbers(["pointCost"]), pointCostCreateInput),
    response: legacyPointCost,
    status: 201,
    handler: (caller, input) => caller.reference.pointCosts.create(input),
  }),
  route({
    method: "DELETE",
    path: "/api/point-costs/:actionName",
    summary: "Admin: delete an action added later (rows of the legal fee table stay)",
    auth: true,
    input: z.object({ actionName: z.string() }),
    response: message,
    handler: async (caller, input) => {
      await caller.reference.pointCosts.delete(input);
      return { message: MSG.pointCostDeleted };
    },
  }),
];
