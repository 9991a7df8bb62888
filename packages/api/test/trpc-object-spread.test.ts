import { initTRPC } from "@trpc/server";
import { describe, expect, it, vi } from "vitest";

/**
 * patches/@trpc__server@11.22.1.patch, "the engine's object spread" (patches/README.md): tRPC's
 * compiled `{ ...a, ...b }` helper (`_objectSpread2`) is the engine's spread instead of a
 * `defineProperty` per key; tRPC spreads its options, context and input at every middleware
 * (decision 0037: about 5% of a small call's server CPU). The merges must come out as before
 * (later keys win, symbols kept, an own "__proto__" key stays a plain key and sets no prototype),
 * and a call must define no property one at a time, however many middlewares it goes through.
 */
type Ctx = Record<string | symbol, unknown>;
const t = initTRPC.context<Ctx>().create();
const tag = Symbol("tag");

/** Each adds its key to the context; a later one overrides `step`. */
const stamp = (key: string) => t.middleware(({ next }) => next({ ctx: { [key]: true, step: key } }));
const tagged = t.middleware(({ next }) => next({ ctx: { [tag]: "kept" } }));

const throughSix = t.procedure
  .use(stamp("m1"))
  .use(stamp("m2"))
  .use(stamp("m3"))
  .use(stamp("m4"))
  .use(stamp("m5"))
  .use(tagged)
  // Two input parsers: tRPC merges what both return.
  .input((raw: unknown) => ({ first: (raw as { first: number }).first, shared: "first" }))
  .input((raw: unknown): { second: number; shared: string } => {
    const { second, extra } = raw as { second: number; extra?: unknown };
    // JSON.parse makes "__proto__" an own key, as a request body's parser does.
    return { second, shared: "second", ...(extra === undefined ? {} : (JSON.parse(String(extra)) as object)) };
  });

const router = t.router({
  echo: throughSix.query(({ ctx, input }) => ({ ctx, input })),
});
const caller = t.createCallerFactory(router)({ base: 1, step: "base" });
/** A function parser's input type is its output's: the raw input is given as is. */
const echo = (raw: Record<string, unknown>) => caller.echo(raw as never);

describe("tRPC's object spread (patched: the engine's)", () => {
  it("merges contexts and inputs as before: later keys win, symbols kept", async () => {
    const { ctx, input } = await echo({ first: 1, second: 2 });
    expect(ctx).toMatchObject({ base: 1, m1: true, m2: true, m3: true, m4: true, m5: true, step: "m5" });
    expect(ctx[tag]).toBe("kept");
    expect(input).toEqual({ first: 1, second: 2, shared: "second" });
  });

  it('keeps an own "__proto__" key a plain key: no prototype set, nothing polluted', async () => {
    const { input } = await echo({ first: 1, second: 2, extra: '{"__proto__": {"polluted": true}}' });
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.hasOwn(input, "__proto__")).toBe(true);
    expect((input as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("defines no property one at a time on a call through six middlewares", async () => {
    await echo({ first: 1, second: 2 });
    const defineProperty = vi.spyOn(Object, "defineProperty");
    const defineProperties = vi.spyOn(Object, "defineProperties");
    defineProperty.mockClear();
    defineProperties.mockClear();
    let defined: unknown[];
    try {
      await echo({ first: 1, second: 2 });
      defined = [
        ...defineProperty.mock.calls.map((call) => call[1]),
        ...defineProperties.mock.calls.map((call) => Object.keys(call[1])),
      ];
    } finally {
      defineProperty.mockRestore();
      defineProperties.mockRestore();
    }
    // Unpatched: a call for most keys merged, more with each middleware.
    expect(defined).toEqual([]);
  });
});
