/** Assertions of a browser test about what is in view (the layout guard every check runs is layout.ts). */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** The element's box lies inside the viewport (nothing clipped at either side). */
export async function inViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, "element not drawn").not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  expect(box.height).toBeGreaterThan(0);
}

/** No horizontal scroll: the page is no wider than the screen. */
export async function noHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  expect(innerWidth).toBe(page.viewportSize()?.width);
}

/**
 * Neither the page nor anything in `main` scrolls sideways: a table in its own scroll container
 * leaves the page as wide as the screen but hides its columns all the same.
 */
export async function noSidewaysScroll(page: Page): Promise<void> {
  await noHorizontalScroll(page);
  const scrollers = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("main *"))
      .filter((el) => {
        const { overflowX } = getComputedStyle(el);
        return (overflowX === "auto" || overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth} > ${el.clientWidth})`),
  );
  expect(scrollers).toEqual([]);
}
