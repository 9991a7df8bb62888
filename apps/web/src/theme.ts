import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  luminance,
  type MantineColorsTuple,
  type MantineTheme,
  toRgba,
} from "@mantine/core";
import { JAPANESE_CALENDAR } from "./lib/calendar";

/**
 * The theme, with colours that read at WCAG AA (4.5:1 for text) in every state: members read on
 * phones outdoors, administrators all day. The brand stays Mantine's pink; what changes is which
 * shade carries text:
 *
 * - filled components (buttons, badges, the active page) use shade 8 (pink #c2255c, 5.7:1 with
 *   white), hover goes one shade darker; `autoContrast` puts black text on the few light hues
 *   (yellow, lime, green…) so no colour, used now or later, has white text below 4.5:1;
 * - light, subtle and outline variants, links, `c="red"`-style text and the grey helper text
 *   ("dimmed"), error, success, placeholder and disabled text are darkened from their Mantine
 *   shade just as far as needed to reach 4.5:1 on every surface they sit on (white, the page
 *   greys, the pale pink and orange panels, their own tinted backgrounds and hover states).
 *
 * The brand's lighter pinks (the logo, large headings, gradients) stay where there is no small
 * text on them. `src/theme.test.ts` checks every pair.
 */

/** WCAG AA for normal-size text. */
export const MIN_TEXT_CONTRAST = 4.5;
/**
 * autoContrast's luminance threshold: above it a filled background gets black text, else white.
 * White reaches 4.5:1 up to a luminance of 0.1833, black from 0.175 on; 0.183 keeps white text
 * wherever it still passes (red shade 8, 4.5:1) and guarantees 4.5:1 either way.
 */
const LUMINANCE_THRESHOLD = 0.183;
/** The shade filled components use (Mantine's `primaryShade`, light scheme). */
const FILLED_SHADE = 8;

const { colors, white, black } = DEFAULT_THEME;
const gray = colors.gray;

/** WCAG 2 contrast ratio of two opaque colours. */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** `color` darkened in 5 % steps until it reaches 4.5:1 on every one of `backgrounds`. */
export function readableOn(color: string, backgrounds: readonly string[]): string {
  for (let step = 0; step <= 20; step++) {
    const candidate = step === 0 ? color : darken(color, step / 20);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= MIN_TEXT_CONTRAST)) return candidate;
  }
  return black;
}

/**
 * Where text sits in this app: white cards and dialogs, the page background and striped rows
 * (gray 0), hovered rows and grey notices (gray 1), the pale pink top of the public pages and the
 * pale orange age notice.
 */
export const SURFACES: readonly string[] = [white, gray[0], gray[1], colors.pink[0], colors.orange[0]];

/** `color` at `opacity` laid over the opaque `backdrop`, as an opaque colour. */
function over(color: string, opacity: number, backdrop: string): string {
  const [c, b] = [toRgba(color), toRgba(backdrop)];
  const mix = (x: number, y: number) => Math.round(x * opacity + y * (1 - opacity));
  return `rgb(${mix(c.r, b.r)}, ${mix(c.g, b.g)}, ${mix(c.b, b.b)})`;
}

/** Mantine tints an outline button's hover with its colour at 5 %. */
const OUTLINE_HOVER_OPACITY = 0.05;

/** Shades after the filled one: hover darker (white text) or lighter (black text). */
const HOVER_DARKER = 9;
const HOVER_LIGHTER = 7;

/** Text on a filled background of `shade`: black above the threshold, else white. */
export function filledTextOn(shade: string): string {
  return luminance(shade) > LUMINANCE_THRESHOLD ? black : white;
}

/** Per palette colour, the CSS variables that carry text (light scheme). */
export function readableColorVariables(name: string, shades: MantineColorsTuple): Record<string, string> {
  const filled = shades[FILLED_SHADE];
  // Hover moves away from the text colour: darker under white text, lighter under black text.
  const hover = filledTextOn(filled) === white ? shades[HOVER_DARKER] : shades[HOVER_LIGHTER];
  const text = readableOn(filled, SURFACES);
  const outlineHovered = SURFACES.map((surface) => over(filled, OUTLINE_HOVER_OPACITY, surface));
  return {
    [`--mantine-color-${name}-filled-hover`]: hover,
    // `c="red"` and the like.
    [`--mantine-color-${name}-text`]: text,
    // Outline variant: its text and border, on any surface, also hovered.
    [`--mantine-color-${name}-outline`]: readableOn(filled, [...SURFACES, ...outlineHovered]),
    // Light and subtle variants: text on shade 1, and on shade 2 when hovered.
    [`--mantine-color-${name}-light-color`]: readableOn(shades[9], [shades[1], shades[2], ...SURFACES]),
  };
}

/** The app's global text colours (light scheme). */
export function readableGlobalVariables(theme: MantineTheme): Record<string, string> {
  const primaryText = readableOn(theme.colors[theme.primaryColor]?.[FILLED_SHADE] ?? black, SURFACES);
  return {
    // Helper text, captions, the footer: Mantine's gray 6 (3.3:1) made dark enough.
    "--mantine-color-dimmed": readableOn(gray[6], [...SURFACES, gray[2]]),
    "--mantine-color-placeholder": readableOn(gray[5], [white, gray[0]]),
    "--mantine-color-anchor": primaryText,
    "--mantine-color-error": readableOn(colors.red[7], SURFACES),
    "--mantine-color-success": readableOn(colors.teal[8], SURFACES),
    // Disabled controls are exempt in WCAG, but their labels ("確認", "送信中...") are still read.
    "--mantine-color-disabled-color": readableOn(gray[6], [gray[2]]),
  };
}

export const theme = createTheme({
  primaryColor: "pink",
  primaryShade: { light: FILLED_SHADE, dark: FILLED_SHADE },
  autoContrast: true,
  luminanceThreshold: LUMINANCE_THRESHOLD,
  fontFamily:
    '"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Yu Gothic", Meiryo, system-ui, sans-serif',
  headings: { fontFamily: '"Hiragino Sans", "Noto Sans JP", "Yu Gothic", Meiryo, system-ui, sans-serif' },
  defaultRadius: "md",
  components: {
    // Dropdowns (Select, the date pickers, menus) sit in a fixed layer in a portal. Positioned
    // `absolute` in <body>, a dropdown drawn for one frame at a stale place past the right edge
    // widened a phone's layout viewport (a mobile browser grows it to fit overflowing content);
    // the centred modal moved, the input counted as detached (hideDetached), the dropdown hid, the
    // viewport shrank back and it showed again: open and closed every few frames at 375 px
    // (decision 0032). A fixed element never adds to the page's width, so the loop cannot start; shift
    // keeps it 8 px inside the screen, and flip picks its side once on opening (Mantine's
    // preventPositionChangeWhenVisible), so the keyboard or a scroll does not make it jump sides.
    Popover: {
      defaultProps: {
        floatingStrategy: "fixed",
        withinPortal: true,
        middlewares: { flip: true, shift: { padding: 8 }, inline: false },
      },
    },
    Combobox: {
      defaultProps: {
        floatingStrategy: "fixed",
        withinPortal: true,
        middlewares: { flip: true, shift: { padding: 8 }, inline: false },
      },
    },
    // Icon-only close buttons of dialogs, drawers, alerts and notifications get a name.
    CloseButton: { defaultProps: { "aria-label": "閉じる" } },
    Alert: { defaultProps: { closeButtonLabel: "閉じる" } },
    // A table wider than the screen scrolls; keyboard users reach it with Tab and scroll with arrows.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
    // Field errors are announced when they appear; Mantine ties them to the field (aria-describedby).
    InputWrapper: { defaultProps: { errorProps: { role: "alert" } } },
    // Showing the password is an action too: reachable by Tab, named in Japanese (its state is aria-pressed).
    PasswordInput: {
      defaultProps: {
        visibilityToggleFocusable: true,
        visibilityToggleButtonProps: { "aria-label": "入力した文字を表示" },
      },
    },
    // Every date picker reads in Japanese order (with DatesProvider's locale ja in main.tsx).
    ...Object.fromEntries(
      ["Calendar", "DatePicker", "DateInput", "DatePickerInput", "DateTimePicker"].map((name) => [
        name,
        { defaultProps: JAPANESE_CALENDAR },
      ]),
    ),
  },
});

/** Applies the readable colours above on top of Mantine's own variables. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: Object.assign(
    readableGlobalVariables(resolved),
    ...Object.entries(resolved.colors).map(([name, shades]) => readableColorVariables(name, shades)),
  ),
  dark: {},
});
