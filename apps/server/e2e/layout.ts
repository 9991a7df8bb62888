import type { Page } from "playwright-core";

/**
 * The layout guard of the browser tests, run with the accessibility check on every screen and
 * dialog they visit (checkA11y in a11y.ts). It fails on what a missing stylesheet or a rule that
 * does not fit a phone draws, which axe does not see:
 *
 * 1. A giant graphic: an icon, svg, image, canvas or video drawn taller than 64 px. Photos, charts
 *    and barcodes may be taller; they are recognised by `data-graphic="photo" | "chart" |
 *    "barcode"` on the element or an ancestor (ProfilePhoto, BarChart, Barcode, the verification
 *    images, the camera preview, the large avatars), or, for an <img>, by a member photo's source
 *    (a path under /uploads/). Anything else taller than 64 px is an icon blown up, as Mantine's
 *    check mark is (300 px) when Checkbox.css is not loaded.
 * 2. Sideways scroll: the document is wider than the viewport (scrollWidth > clientWidth). The
 *    elements that stick out on the right (the innermost ones, outside any scrolling region) are
 *    named.
 * 3. A form taller than its content needs: a form, fieldset, label or the row of a checkbox or
 *    radio (the smallest box holding the input and its label) with an empty stretch of more than
 *    64 px, top to bottom, that none of its content covers. Content is its text (line boxes), its
 *    form controls and buttons, its other leaf boxes and its graphics, except the graphics refused
 *    by rule 1: an unstyled check mark is what stretches the row, not content. A normal form's
 *    empty stretches are the gaps between its fields (16–24 px), however many fields it has; its
 *    padding is not counted.
 * 4. A checkbox or radio not beside its label: the box and its label (one of its own) share no
 *    line, as Mantine's box sits over its label when InlineInput.css is not loaded.
 */

/** The tallest graphic that is not a photo, chart or barcode. */
export const MAX_ICON_PX = 64;
/** The longest empty stretch a form, label or control row may have between or around its content. */
export const MAX_SLACK_PX = 64;

export interface LayoutProblem {
  rule: "graphic" | "overflow" | "slack" | "beside";
  /** The offending element: tag, id, classes and nearby text. */
  element: string;
  message: string;
}

export interface LayoutReport {
  label: string;
  url: string;
  width: number;
  problems: LayoutProblem[];
}

export class LayoutError extends Error {
  constructor(readonly report: LayoutReport) {
    const lines = report.problems.slice(0, 12).map((p) => `  [${p.rule}] ${p.message}`);
    super(
      `layout: ${report.problems.length} problem(s) on "${report.label}" at ${report.width}px (${report.url})\n${lines.join("\n")}`,
    );
    this.name = "LayoutError";
  }
}

/** Finds the guard's problems on the page as it is now (call it once the screen is still). */
export async function findLayoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(
    ({ maxIcon, maxSlack }) => {
      const problems: LayoutProblem[] = [];
      const px = (n: number) => `${Math.round(n)}`;
      const shown = (el: Element) =>
        el.checkVisibility({ visibilityProperty: true }) &&
        el.getBoundingClientRect().width > 0 &&
        el.getBoundingClientRect().height > 0;
      const text = (el: Element | null, max = 40) => (el?.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, max);
      /** Tag, id, up to three classes, and a name: its label, alt or text, else the nearest text around it. */
      const describe = (el: Element) => {
        const classes = Array.from(el.classList)
          .filter((c) => !/^m_[0-9a-f]+$/.test(c))
          .slice(0, 3);
        const id = el.id && !/^mantine-/.test(el.id) ? `#${el.id}` : "";
        const tag = `${el.tagName.toLowerCase()}${id}${classes.map((c) => `.${c}`).join("")}`;
        const name = (of: Element) =>
          of.getAttribute("aria-label") || of.getAttribute("alt") || of.getAttribute("data-testid") || text(of);
        if (name(el)) return `${tag} "${name(el)}"`;
        let around: Element | null = el.parentElement;
        for (let depth = 0; around && depth < 4 && !name(around); depth++) around = around.parentElement;
        return around && name(around) ? `${tag} near "${name(around)}"` : tag;
      };

      // 1. Giant graphics.
      const GRAPHICS = "svg, img, canvas, video, object, embed, input[type=image]";
      const allowed = (el: Element) => {
        const kind = el.closest("[data-graphic]")?.getAttribute("data-graphic");
        if (kind === "photo" || kind === "chart" || kind === "barcode") return true;
        if (el instanceof HTMLImageElement) {
          const source = new URL(el.currentSrc || el.src, location.href);
          return source.origin === location.origin && source.pathname.startsWith("/uploads/");
        }
        return false;
      };
      const graphics = Array.from(document.querySelectorAll(GRAPHICS)).filter(
        (el) => !el.parentElement?.closest("svg") && shown(el),
      );
      const refused = new Set<Element>();
      for (const el of graphics) {
        const box = el.getBoundingClientRect();
        if (box.height <= maxIcon || allowed(el)) continue;
        refused.add(el);
        problems.push({
          rule: "graphic",
          element: describe(el),
          message: `${describe(el)} is ${px(box.width)}×${px(box.height)} px: taller than ${maxIcon} px and not a photo, chart or barcode (data-graphic)`,
        });
      }

      // 2. Sideways scroll.
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth) {
        const edge = root.clientWidth + 0.5;
        /** Inside a box that clips or scrolls sideways, or fixed: does not widen the document. */
        const contained = (el: Element) => {
          for (let up = el.parentElement; up && up !== document.body && up !== root; up = up.parentElement) {
            const style = getComputedStyle(up);
            if (style.overflowX !== "visible" || style.position === "fixed") return true;
          }
          return getComputedStyle(el).position === "fixed";
        };
        const sticking = Array.from(document.body.querySelectorAll("*")).filter(
          (el) => !el.parentElement?.closest("svg") && shown(el) && el.getBoundingClientRect().right > edge,
        );
        const innermost = sticking.filter(
          (el) => !contained(el) && !sticking.some((other) => other !== el && el.contains(other)),
        );
        const named = innermost.slice(0, 5).map((el) => {
          const box = el.getBoundingClientRect();
          return `${describe(el)} (${px(box.width)}×${px(box.height)} px, right edge at ${px(box.right)} px)`;
        });
        problems.push({
          rule: "overflow",
          element: named[0] ?? "html",
          message: `the page scrolls sideways: ${root.scrollWidth} px wide in a ${root.clientWidth} px viewport; sticking out: ${named.join("; ") || "(no single element)"}`,
        });
      }

      // 3. Forms taller than their content: the longest vertical stretch of a form, fieldset, label
      // or control row that no content covers.
      const rows = new Set<Element>();
      for (const input of Array.from(document.querySelectorAll("input[type=checkbox], input[type=radio]"))) {
        const labels = Array.from((input as HTMLInputElement).labels ?? []);
        let row: Element | null = input.parentElement;
        while (row && !labels.every((l) => row?.contains(l))) row = row.parentElement;
        if (row && labels.length > 0) rows.add(row);
      }
      const CONTROLS = "input:not([type=hidden]), textarea, select, button";
      for (const el of new Set([...Array.from(document.querySelectorAll("form, fieldset, label")), ...rows])) {
        if (!shown(el)) continue;
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const top = box.top + Number.parseFloat(style.paddingTop) + Number.parseFloat(style.borderTopWidth);
        const bottom = box.bottom - Number.parseFloat(style.paddingBottom) - Number.parseFloat(style.borderBottomWidth);
        if (bottom - top <= maxSlack) continue;
        const covered: [number, number][] = [];
        const add = (r: DOMRect) => {
          if (r.height > 0 || r.width > 0) covered.push([Math.max(r.top, top), Math.min(r.bottom, bottom)]);
        };
        // A graphic counts as one box (its own parts are not walked); what is not drawn, not at all.
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
          acceptNode: (node) =>
            node instanceof Element &&
            (node.parentElement?.closest("svg") || !node.checkVisibility({ visibilityProperty: true }))
              ? NodeFilter.FILTER_REJECT
              : NodeFilter.FILTER_ACCEPT,
        });
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node instanceof Text) {
            if (!node.data.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of Array.from(range.getClientRects())) add(r);
            continue;
          }
          const child = node as Element;
          if (refused.has(child)) continue;
          if (child.matches(GRAPHICS) || child.matches(CONTROLS) || child.childElementCount === 0)
            add(child.getBoundingClientRect());
        }
        if (covered.length === 0) continue;
        covered.sort((a, b) => a[0] - b[0]);
        let reached = top;
        let widest = 0;
        for (const [from, to] of covered) {
          widest = Math.max(widest, from - reached);
          reached = Math.max(reached, to);
        }
        widest = Math.max(widest, bottom - reached);
        if (widest <= maxSlack) continue;
        const kind = rows.has(el) ? "the row of a checkbox or radio " : "";
        problems.push({
          rule: "slack",
          element: describe(el),
          message: `${kind}${describe(el)} is ${px(box.width)}×${px(box.height)} px with ${px(widest)} px of it empty (at most ${maxSlack}): taller than its content needs`,
        });
      }
      // 4. A checkbox or radio beside its label: the box and the label share a line (a label of
      // its own, not one wrapping the input). Without InlineInput.css Mantine's box sits above it.
      for (const input of Array.from(document.querySelectorAll("input[type=checkbox], input[type=radio]"))) {
        if (!shown(input)) continue;
        const box = input.getBoundingClientRect();
        for (const label of Array.from((input as HTMLInputElement).labels ?? [])) {
          if (label.contains(input) || !shown(label)) continue;
          const line = label.getBoundingClientRect();
          if (line.top < box.bottom && line.bottom > box.top) continue;
          problems.push({
            rule: "beside",
            element: describe(label),
            message: `${describe(input)} (${px(box.width)}×${px(box.height)} px at y ${px(box.top)}) is not beside its label ${describe(label)} (${px(line.width)}×${px(line.height)} px at y ${px(line.top)})`,
          });
        }
      }
      return problems;
    },
    { maxIcon: MAX_ICON_PX, maxSlack: MAX_SLACK_PX },
  );
}

/** Fails on any problem of the layout guard on the screen or dialog named `label`. */
export async function checkLayout(page: Page, label: string): Promise<LayoutReport> {
  const report: LayoutReport = {
    label,
    url: new URL(page.url()).pathname,
    width: page.viewportSize()?.width ?? 0,
    problems: await findLayoutProblems(page),
  };
  if (report.problems.length > 0) throw new LayoutError(report);
  return report;
}
