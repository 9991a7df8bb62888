/** Legacy clients may send numbers from text inputs as digit strings. */
const numeric = (value: unknown) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value);

/** A `z.preprocess` step turning the named digit-string fields of a body into numbers. */
export const withNumbers = (keys: string[]) => (raw: unknown) =>
  raw && typeof raw === "object"
    ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, keys.includes(k) ? numeric(v) : v]))
    : raw;
