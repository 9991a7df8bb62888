import type { RouterOutputs } from "../../lib/api-types";

export type AdminUser = RouterOutputs["adminUsers"]["list"]["users"][number];
export type LedgerEntry = RouterOutputs["adminUsers"]["ledger"][number];
