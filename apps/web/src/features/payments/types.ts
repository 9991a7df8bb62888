import type { RouterOutputs } from "../../lib/api-types";

/** `legal.info`: the public facts every legal page and the purchase screen state. */
export type LegalInfo = RouterOutputs["legal"]["info"];

/** A purchase as the member sees it (and the administrator, with the member added). */
export type Transaction = RouterOutputs["purchase"]["history"]["transactions"][number];

/** A purchase in the administrator's list: the member who bought it added. */
export type AdminTransaction = RouterOutputs["adminPayments"]["list"]["transactions"][number];

export type SmartPitPayment = NonNullable<Transaction["smartPit"]>;
export type BankPayment = NonNullable<Transaction["bank"]>;
