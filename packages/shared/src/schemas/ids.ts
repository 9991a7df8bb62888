import { z } from "zod";
import { MSG } from "../messages";

/**
 * Record ids are UUIDs (PostgreSQL `uuid`, made by gen_random_uuid()). This is the one check of
 * one: the input schemas use `uuid()`, and code that must tell an id from other text (a token's
 * subject, "an id or a name" search fields) uses `isUuid`, so both accept the same strings and
 * nothing that is not an id reaches a `uuid` column (PostgreSQL would refuse it: 22P02).
 */

/** An id, with the message a wrong one answers (most routes: 見つかりません, as for an unknown id). */
export function uuid(message: string = MSG.notFound) {
  return z.uuid({ error: message });
}

const ANY_UUID = uuid();

/** True for the text of a UUID as `uuid()` accepts it. */
export const isUuid = (value: string): boolean => ANY_UUID.safeParse(value).success;
