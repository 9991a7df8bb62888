import { z } from "zod";
import { MSG } from "../messages";

/**
 * Text that can be stored and shown: no NUL character (PostgreSQL refuses it in text columns) and
 * no lone UTF-16 surrogate (it cannot be encoded as UTF-8). Every string that comes from outside
 * goes through `text()`, so neither ever reaches the database.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !value.includes("\0") && !LONE_SURROGATE.test(value);
}

interface TextOptions {
  /** Longest accepted length, after trimming. */
  max: number;
  /** Message when longer than `max`; the generic bad-input message otherwise. */
  tooLong?: string;
  /** Given: the value must not be empty (after trimming), with this message. */
  required?: string;
  /** Trim surrounding white space first (default true; passwords and images are kept as sent). */
  trim?: boolean;
}

/** The one schema for an external string: bounded, storable, trimmed unless told otherwise. */
export function text({ max, tooLong = MSG.badRequest, required, trim = true }: TextOptions) {
  const base = z.string({ error: required ?? MSG.badRequest }).refine(isStorableText, MSG.textInvalid);
  const trimmed = trim ? base.trim() : base;
  return (required ? trimmed.min(1, required) : trimmed).max(max, tooLong);
}

/** A `z.preprocess` step: blank text from a search form means "no filter" (the field is left out). */
export const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
