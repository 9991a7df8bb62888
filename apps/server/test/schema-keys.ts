/** The field names a zod schema reads, so generated objects carry real keys beside unknown ones. */
export function keysOf(schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== "object" || depth > 5) return [];
  const s = schema as {
    shape?: Record<string, unknown>;
    def?: Record<string, unknown>;
    _def?: Record<string, unknown>;
  };
  if (s.shape && typeof s.shape === "object") return Object.keys(s.shape);
  const def = s.def ?? s._def ?? {};
  for (const inner of [def.innerType, def.schema, def.in, def.left, def.right]) {
    const keys = keysOf(inner, depth + 1);
    if (keys.length) return keys;
  }
  for (const option of (def.options as unknown[] | undefined) ?? []) {
    const keys = keysOf(option, depth + 1);
    if (keys.length) return keys;
  }
  return [];
}
