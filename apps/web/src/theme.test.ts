import {
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  defaultVariantColorsResolver,
  mergeMantineTheme,
  toRgba,
} from "@mantine/core";
import { describe, expect, it } from "vitest";
import { contrastRatio, cssVariablesResolver, MIN_TEXT_CONTRAST, SURFACES, theme } from "./theme";

/**
 * Every text colour of the theme against every background it is drawn on, as the browser gets
 * them: Mantine's variables with ours on top, through Mantine's own variant resolver (the code
 * Button, Badge, ActionIcon, NavLink… use), in the resting and the hover state.
 */
const full = mergeMantineTheme(DEFAULT_THEME, theme);
const base = defaultCssVariablesResolver(full);
const ours = cssVariablesResolver(full);
const variables: Record<string, string> = { ...base.variables, ...base.light, ...ours.variables, ...ours.light };

/** A CSS value (hex, rgba, var(), color-mix with black) as an opaque hex over `backdrop`. */
function resolve(value: string, backdrop = "#ffffff"): string {
  const v = value.trim();
  const ref = /^var\((--[\w-]+)\)$/.exec(v);
  if (ref?.[1]) {
    const next = variables[ref[1]];
    if (next === undefined) throw new Error(`undefined variable ${ref[1]}`);
    return resolve(next, backdrop);
  }
  const mix = /^color-mix\(in srgb, (.+), black (\d+(?:\.\d+)?)%\)$/.exec(v);
  if (mix?.[1] && mix[2]) {
    const c = toRgba(resolve(mix[1], backdrop));
    const f = 1 - Number(mix[2]) / 100;
    return hex(c.r * f, c.g * f, c.b * f);
  }
  if (v === "transparent") return backdrop;
  const c = toRgba(v);
  const b = toRgba(backdrop);
  return hex(c.r * c.a + b.r * (1 - c.a), c.g * c.a + b.g * (1 - c.a), c.b * c.a + b.b * (1 - c.a));
}

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((x) => Math.round(x).toString(16).padStart(2, "0")).join("")}`;
}

function expectReadable(what: string, text: string, background: string, backdrop = "#ffffff") {
  const bg = resolve(background, backdrop);
  const fg = resolve(text, bg);
  const ratio = contrastRatio(fg, bg);
  expect(ratio, `${what}: ${fg} on ${bg} is ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
}

const paletteColors = Object.keys(full.colors);

describe("theme contrast (WCAG AA, 4.5:1)", () => {
  it("keeps the brand: pink is the primary colour", () => {
    expect(full.primaryColor).toBe("pink");
    expect(resolve("var(--mantine-primary-color-filled)")).toBe(full.colors.pink[8]);
  });

  for (const color of paletteColors) {
    it(`${color}: filled, light, outline, subtle and plain text, at rest and hovered`, () => {
      const filled = defaultVariantColorsResolver({ color, theme: full, variant: "filled" });
      expectReadable(`${color} filled`, filled.color, filled.background);
      expectReadable(`${color} filled:hover`, filled.color, filled.hover);

      const light = defaultVariantColorsResolver({ color, theme: full, variant: "light" });
      expectReadable(`${color} light`, light.color, light.background);
      expectReadable(`${color} light:hover`, light.color, light.hover);

      for (const surface of SURFACES) {
        const outline = defaultVariantColorsResolver({ color, theme: full, variant: "outline" });
        expectReadable(`${color} outline on ${surface}`, outline.color, outline.background, surface);
        expectReadable(`${color} outline:hover on ${surface}`, outline.color, outline.hover, surface);

        const subtle = defaultVariantColorsResolver({ color, theme: full, variant: "subtle" });
        expectReadable(`${color} subtle on ${surface}`, subtle.color, subtle.background, surface);
        expectReadable(`${color} subtle:hover on ${surface}`, subtle.color, subtle.hover, surface);

        expectReadable(`c="${color}" on ${surface}`, `var(--mantine-color-${color}-text)`, surface);
      }
    });
  }

  it("helper text, links, errors and success read on every surface", () => {
    for (const surface of SURFACES) {
      for (const token of ["dimmed", "anchor", "error", "success", "text"]) {
        expectReadable(`${token} on ${surface}`, `var(--mantine-color-${token})`, surface);
      }
    }
    expectReadable("dimmed on a disabled field", "var(--mantine-color-dimmed)", "var(--mantine-color-disabled)");
  });

  it("placeholders and disabled labels read too", () => {
    expectReadable("placeholder", "var(--mantine-color-placeholder)", "var(--mantine-color-white)");
    expectReadable("disabled", "var(--mantine-color-disabled-color)", "var(--mantine-color-disabled)");
  });

  it("the default (white) button reads at rest and hovered", () => {
    const v = defaultVariantColorsResolver({ color: "gray", theme: full, variant: "default" });
    expectReadable("default", v.color, v.background);
    expectReadable("default:hover", v.color, v.hover);
  });
});
