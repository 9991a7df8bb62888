import { z } from "zod";

/*
 * The one place where text from a query string or a legacy form body becomes a number or a
 * boolean, before the route's schema (the shared ones of packages/shared/src/schemas) checks it.
 * Only plain digit strings become numbers: "1e15", "0x10", "1.5", " " and "" stay text and are
 * refused by the schema with its own message.
 */

/** Legacy clients may send numbers from text inputs as digit strings. */
const numeric = (value: unknown) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value);

/** A `z.preprocess` step turning the named digit-string fields of a body into numbers. */
export const withNumbers = (keys: string[]) => (raw: unknown) =>
  raw && typeof raw === "object"
    ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, keys.includes(k) ? numeric(v) : v]))
    : raw;

/** A query parameter holding a whole number (`?page=2`), checked by `schema`. */
export const queryNumber = <T extends z.ZodType>(schema: T) => z.preprocess(numeric, schema);

/** A query parameter holding a yes/no: true/1 and false/0, checked by `schema`. */
export const queryBoolean = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), schema);
