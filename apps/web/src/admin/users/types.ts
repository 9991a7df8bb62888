import type { RouterOutputs } from "@enmusubi/api";

export type AdminUser = RouterOutputs["adminUsers"]["list"]["users"][number];
export type LedgerEntry = RouterOutputs["adminUsers"]["ledger"][number];
