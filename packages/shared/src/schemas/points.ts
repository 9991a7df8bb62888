import { z } from "zod";
import { KNOWN_ACTIONS } from "../constants/index";
import { MSG } from "../messages";

/** `POST /api/users/deduct-points` (spec §7): the three actions the legacy client prepays. */
export const deductPointsInput = z.object({
  actionName: z.enum(Object.values(KNOWN_ACTIONS) as [string, ...string[]], { error: MSG.unknownAction }),
  quantity: z
    .number({ error: MSG.quantityInvalid })
    .int(MSG.quantityInvalid)
    .min(1, MSG.quantityInvalid)
    .max(1000, MSG.quantityInvalid)
    .default(1),
});
