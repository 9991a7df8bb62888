import {
  annualIncomeCreateInput,
  MSG,
  occupationCreateInput,
  POINT_COST_ABSOLUTE_MAX,
  pointCostAboveCap,
  pointCostCreateInput,
  pointCostKeyInput,
  pointCostUpdateInput,
  referenceIdInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { withNumbers } from "./coerce";
import { EXAMPLE_ANNUAL_INCOME, EXAMPLE_OCCUPATION, EXAMPLE_POINT_COST } from "./examples";

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
  offered: z.boolean().meta({
    description:
      "Charged by the service today. Members and anonymous callers are listed only these; an administrator every row (the others are not offered and never charged).",
  }),
});
const message = z.object({ message: z.string() });

/**
 * A point cost as the document states it: the service refuses more than the row's `maxCost` (the
 * legal fee table's initial figure for its rows, POINT_COST_ABSOLUTE_MAX for rows added later), so
 * no cost above POINT_COST_ABSOLUTE_MAX is ever accepted. Validation stays the shared schema's, so
 * the refusal names the row's own cap.
 */
const pointCostLimits = {
  maximum: POINT_COST_ABSOLUTE_MAX,
  description: `Points, an integer from 0 to the row's maxCost (GET /api/point-costs): the legal fee table's initial figure for its rows, ${POINT_COST_ABSOLUTE_MAX} for rows added later. Digit strings are accepted.`,
};
const pointCostUpdateBody = pointCostUpdateInput.extend({
  pointCost: pointCostUpdateInput.shape.pointCost.meta(pointCostLimits),
});
const pointCostCreateBody = pointCostCreateInput.extend({
  pointCost: pointCostCreateInput.shape.pointCost.meta(pointCostLimits),
});

const toOccupation = (o: { id: string; name: string }) => ({ _id: o.id, occupaionName: o.name });
const toAnnualIncome = (i: { id: string; label: string }) => ({ _id: i.id, annualIncome: i.label });

export const referenceRoutes = [
  route({
    method: "GET",
    path: "/api/occupations",
    summary: "Occupations in display order (no token needed)",
    access: "public",
    response: z.array(legacyOccupation),
    example: [EXAMPLE_OCCUPATION],
    handler: async (caller) => (await caller.reference.occupations.list()).map(toOccupation),
  }),
  route({
    method: "POST",
    path: "/api/occupations",
    summary: "Admin: add an occupation; answers the created entry",
    access: "admin",
    input: z.object({ occupaionName: occupationCreateInput.shape.name }),
    response: legacyOccupation,
    example: EXAMPLE_OCCUPATION,
    errors: { 409: MSG.occupationTaken },
    status: 201,
    handler: async (caller, input) =>
      toOccupation(await caller.reference.occupations.create({ name: input.occupaionName })),
  }),
  route({
    method: "DELETE",
    path: "/api/occupations/:id",
    summary: "Admin: delete an occupation (members who chose it keep an unset occupation)",
    access: "admin",
    input: referenceIdInput,
    response: message,
    example: { message: MSG.occupationDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.reference.occupations.delete(input);
      return { message: MSG.occupationDeleted };
    },
  }),
  route({
    method: "GET",
    path: "/api/annual-incomes",
    summary: "Annual-income ranges in display order (no token needed)",
    access: "public",
    response: z.array(legacyAnnualIncome),
    example: [EXAMPLE_ANNUAL_INCOME],
    handler: async (caller) => (await caller.reference.annualIncomes.list()).map(toAnnualIncome),
  }),
  route({
    method: "POST",
    path: "/api/annual-incomes",
    summary: "Admin: add an annual-income range; answers the created entry",
    access: "admin",
    input: z.object({ annualIncomeRange: annualIncomeCreateInput.shape.label }),
    response: legacyAnnualIncome,
    example: EXAMPLE_ANNUAL_INCOME,
    errors: { 409: MSG.annualIncomeTaken },
    status: 201,
    handler: async (caller, input) =>
      toAnnualIncome(await caller.reference.annualIncomes.create({ label: input.annualIncomeRange })),
  }),
  route({
    method: "DELETE",
    path: "/api/annual-incomes/:id",
    summary: "Admin: delete an annual-income range",
    access: "admin",
    input: referenceIdInput,
    response: message,
    example: { message: MSG.annualIncomeDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.reference.annualIncomes.delete(input);
      return { message: MSG.annualIncomeDeleted };
    },
  }),
  route({
    method: "GET",
    path: "/api/point-costs",
    summary:
      "Point costs with the cap each may not exceed (no token needed): the prices the service charges; an administrator's token lists every row",
    access: "public",
    response: z.array(legacyPointCost),
    example: [EXAMPLE_POINT_COST],
    handler: (caller) => caller.reference.pointCosts.list(),
  }),
  route({
    method: "PUT",
    path: "/api/point-costs/:actionName",
    summary: "Admin: edit pointCost, displayName, description; never above the legal initial fee",
    description: `A cost above the row's maxCost is refused with 400 (the legal fee table's initial figure for its rows, ${POINT_COST_ABSOLUTE_MAX} for rows added later).`,
    access: "admin",
    input: z.preprocess(withNumbers(["pointCost"]), pointCostUpdateBody),
    response: legacyPointCost,
    example: { ...EXAMPLE_POINT_COST, pointCost: 8 },
    errors: { 400: pointCostAboveCap(10), 404: MSG.notFound },
    handler: (caller, input) => caller.reference.pointCosts.update(input),
  }),
  route({
    method: "POST",
    path: "/api/point-costs",
    summary: "Admin: add an action (pointCost defaults to 5)",
    description: `A cost above ${POINT_COST_ABSOLUTE_MAX} (the legal fee table's highest figure) is refused with 400.`,
    access: "admin",
    input: z.preprocess(withNumbers(["pointCost"]), pointCostCreateBody),
    response: legacyPointCost,
    example: {
      actionName: "voice_call",
      displayName: "音声通話",
      pointCost: 5,
      description: "1分ごと",
      maxCost: POINT_COST_ABSOLUTE_MAX,
      offered: false,
    },
    errors: { 400: pointCostAboveCap(POINT_COST_ABSOLUTE_MAX), 409: MSG.actionNameTaken },
    status: 201,
    handler: (caller, input) => caller.reference.pointCosts.create(input),
  }),
  route({
    method: "DELETE",
    path: "/api/point-costs/:actionName",
    summary: "Admin: delete an action added later (rows of the legal fee table stay)",
    access: "admin",
    input: pointCostKeyInput,
    response: message,
    example: { message: MSG.pointCostDeleted },
    errors: { 400: MSG.legalPointCostNotDeletable, 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.reference.pointCosts.delete(input);
      return { message: MSG.pointCostDeleted };
    },
  }),
];
