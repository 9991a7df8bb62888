import type { z } from "zod";

export type FieldErrors = Partial<Record<string, string>>;

/**
 * Validates form values with the same zod schema the server uses, so the browser shows the
 * server's Japanese messages before a round trip. Answers the parsed data or per-field messages
 * (the first message of each field).
 */
export function validate<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "_form");
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** A NumberInput's value (a number, or the text left while typing) as a number; NaN fails validation. */
export function asNumber(value: number | string): number {
  return typeof value === "number" ? value : Number.NaN;
}
