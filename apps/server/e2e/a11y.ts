import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { AxeResults, ImpactValue, RunOptions } from "axe-core";
import type { Page } from "playwright-core";
import { checkLayout } from "./layout";

/**
 * Accessibility check of the browser tests: axe-core (pure JS, from the npm package) is evaluated
 * in the page through the DevTools protocol, which the app's CSP does not govern (an injected
 * <script> would be refused), then run on what is on screen. A serious or critical violation
 * fails the test; every run is written to test-artifacts/a11y/ with all impacts for review. The
 * same check then runs the layout guard (layout.ts), so every screen a test checks is held to both.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const A11Y_ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-artifacts/a11y");

/** Impacts that fail a test. Moderate and minor findings are only written to the report. */
const FAILING: ReadonlySet<ImpactValue> = new Set(["serious", "critical"]);

export interface A11yViolation {
  id: string;
  impact: ImpactValue | null;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

export interface A11yReport {
  label: string;
  url: string;
  width: number;
  /** How long the check took, settling included. */
  ms: number;
  /** The dialogs the check was scoped to (empty: the whole page). */
  dialogs: string[];
  violations: A11yViolation[];
}

export class A11yError extends Error {
  constructor(readonly report: A11yReport) {
    const failing = report.violations.filter((v) => v.impact && FAILING.has(v.impact));
    const lines = failing.flatMap((v) => [
      `  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length})`,
      ...v.nodes.slice(0, 8).map((n) => `      ${n.target}  ${n.summary.replace(/\s+/g, " ").slice(0, 220)}`),
    ]);
    super(
      `accessibility: ${failing.length} serious/critical rule(s) on "${report.label}" at ${report.width}px (${report.url})\n${lines.join("\n")}`,
    );
    this.name = "A11yError";
  }
}

/**
 * Waits until the screen is still: fonts loaded and no finite animation or transition running
 * (Mantine fades modals and notifications in; text caught mid-fade has a false low contrast).
 * Infinite animations (loaders) are ignored.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    await document.fonts.ready;
    for (let round = 0; round < 20; round++) {
      await frame();
      await frame();
      const running = document
        .getAnimations()
        .filter(
          (a) => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
        );
      if (running.length === 0) return;
      await Promise.race([
        Promise.all(running.map((a) => a.finished.catch(() => undefined))),
        new Promise((r) => setTimeout(r, 1000)),
      ]);
    }
  });
}

/**
 * Runs axe on the page as it is now; with a dialog open, on the open dialog(s) and any popover
 * (select, calendar) opened from them, not on the page dimmed behind.
 */
export async function runAxe(page: Page, label: string): Promise<A11yReport> {
  const started = performance.now();
  await settle(page);
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: RunOptions): Promise<AxeResults> } }).axe;
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    const dialogs = Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]')).filter(visible);
    const names = dialogs.map((d) => {
      const id = d.getAttribute("aria-labelledby");
      return (id && document.getElementById(id)?.textContent) || d.getAttribute("aria-label") || "(dialog)";
    });
    // Menus, selects and calendars open from a dialog are portals outside it: checked with it.
    const popovers = Array.from(
      document.querySelectorAll('[data-dates-dropdown], .mantine-Popover-dropdown, [role="listbox"]'),
    ).filter(visible);
    const context = dialogs.length > 0 ? { include: [...dialogs, ...popovers] } : document;
    const results = await axe.run(context, { resultTypes: ["violations"] });
    // The one exception: the options list of a select scrolls without being focusable itself, but
    // the keyboard works it from its combobox field (arrows, aria-activedescendant), which axe's
    // scrollable-region-focusable rule does not see.
    const operatedByCombobox = (selector: string) => {
      const listbox = document.querySelector(selector)?.closest('[role="listbox"]');
      return (
        !!listbox?.id &&
        !!document.querySelector(
          `[role="combobox"][aria-controls="${listbox.id}"], [aria-haspopup="listbox"][aria-controls="${listbox.id}"]`,
        )
      );
    };
    for (const v of results.violations) {
      if (v.id === "scrollable-region-focusable")
        v.nodes = v.nodes.filter((n) => !operatedByCombobox(n.target.map(String).join(" ")));
    }
    return {
      dialogs: names,
      violations: results.violations
        .filter((v) => v.nodes.length > 0)
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? null,
          help: v.help,
          nodes: v.nodes.map((n) => ({
            target: n.target.map(String).join(" "),
            html: n.html.slice(0, 300),
            summary: n.failureSummary ?? "",
          })),
        })),
    };
  });
  const report: A11yReport = {
    label,
    url: new URL(page.url()).pathname,
    width: page.viewportSize()?.width ?? 0,
    ms: Math.round(performance.now() - started),
    ...result,
  };
  await mkdir(A11Y_ARTIFACTS, { recursive: true });
  const file = `${label.replace(/[\\/:*?"<>|\s]+/g, "_")}-${report.width}.json`;
  await writeFile(path.join(A11Y_ARTIFACTS, file), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/**
 * Fails on any serious or critical axe violation of the screen or open dialog, named `label`, and
 * on what the layout guard refuses there (layout.ts: giant icons, sideways scroll, stretched forms).
 */
export async function checkA11y(page: Page, label: string): Promise<A11yReport> {
  const report = await runAxe(page, label);
  if (report.violations.some((v) => v.impact && FAILING.has(v.impact))) throw new A11yError(report);
  await checkLayout(page, label);
  return report;
}
