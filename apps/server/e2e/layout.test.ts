import { LEGAL } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { checkA11y, checkLayout, findLayoutProblems, hasChromium, LayoutError, useE2E } from "./harness";

const e2e = useE2E();

/** A page of its own markup, served under the app's origin (so /uploads/ is the app's). */
async function pageWith(width: number, body: string): Promise<Page> {
  const page = await e2e.page(width);
  await page.goto(`${e2e.baseUrl}/legal/terms-of-service`);
  await page.getByText(LEGAL.lastUpdated).first().waitFor();
  await page.setContent(`<!doctype html><html lang="ja"><head><title>layout</title>
    <style>body { margin: 0; font: 16px/1.5 sans-serif } form, fieldset { margin: 0 }</style></head>
    <body><main>${body}</main></body></html>`);
  return page;
}

/** The check mark of a Mantine Checkbox as it is drawn without Checkbox.css: as wide as its row. */
const UNSTYLED_CHECKBOX = `<div class="mantine-Checkbox-root"><div class="mantine-Checkbox-body">
  <div class="mantine-Checkbox-inner"><input type="checkbox" id="c1" class="mantine-Checkbox-input">
  <svg viewBox="0 0 10 7" fill="none" class="mantine-Checkbox-icon" aria-hidden="true"><path d="M4 4.6 1.5 2 .5 3l3.5 4L9.5 1 8.5 0z" fill="currentColor"/></svg></div>
  <div class="mantine-Checkbox-labelWrapper"><label for="c1" class="mantine-Checkbox-label">18歳以上です</label></div>
  </div></div>`;

describe.skipIf(!hasChromium)("the layout guard of the browser tests", () => {
  it("refuses an icon taller than 64 px and names it with its size; a photo, chart or barcode may be taller", async () => {
    const page = await pageWith(
      375,
      `<h1>図</h1>
      <button aria-label="閉じる"><svg width="300" height="300" viewBox="0 0 10 10"><path d="M0 0h10v10z"/></svg></button>
      <svg data-graphic="chart" role="img" aria-label="グラフ" width="300" height="200"><rect width="300" height="200"/></svg>
      <div data-graphic="barcode"><svg role="img" aria-label="バーコード" width="300" height="80"><rect width="300" height="80"/></svg></div>
      <img alt="会員の写真" src="/uploads/none.jpg" width="200" height="200">
      <img alt="飾り" src="/favicon.svg" width="120" height="120">
      <svg width="64" height="64" aria-hidden="true"><circle cx="32" cy="32" r="32"/></svg>`,
    );
    const problems = await findLayoutProblems(page);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^svg near "閉じる" is 300×300 px: taller than 64 px/),
      expect.stringMatching(/^img "飾り" is 120×120 px: taller than 64 px/),
    ]);
    await expect(checkLayout(page, "giant icon")).rejects.toThrow(LayoutError);
    await page.close();
  });

  it("refuses a page that scrolls sideways and names what sticks out; a region that scrolls by itself passes", async () => {
    const page = await pageWith(
      320,
      `<h1>表</h1>
      <section style="overflow-x: auto" tabindex="0" aria-label="横に長い表"><div style="width: 900px">横に長い内容</div></section>
      <p>ふつうの段落</p>`,
    );
    expect(await findLayoutProblems(page)).toEqual([]);
    await page.evaluate(() => {
      const wide = document.createElement("div");
      wide.dataset.testid = "too-wide";
      wide.style.width = "480px";
      wide.textContent = "はみ出す箱";
      document.querySelector("main")?.append(wide);
    });
    const [problem, ...rest] = await findLayoutProblems(page);
    expect(rest).toEqual([]);
    expect(problem?.rule).toBe("overflow");
    expect(problem?.message).toMatch(/scrolls sideways: 480 px wide in a 320 px viewport/);
    expect(problem?.message).toContain('div "too-wide" (480×24 px, right edge at 480 px)');
    await page.close();
  });

  it("refuses a form or a checkbox row stretched beyond its content, not a long form or a wrapped label", async () => {
    const page = await pageWith(
      320,
      `<h1>登録</h1>
      <form aria-label="登録">
        <label for="mail">メールアドレス</label><input id="mail" type="email">
        <textarea aria-label="自己紹介" rows="12"></textarea>
        <label><input type="checkbox"> 利用規約とプライバシーポリシーに同意します。長い文は 320 px で何行にも折り返されますが、それは内容の高さです。</label>
        <button>登録する</button>
      </form>`,
    );
    expect(await findLayoutProblems(page)).toEqual([]);
    // A form whose box is stretched far beyond its fields.
    await page.evaluate(() => {
      (document.querySelector("form") as HTMLElement).style.minHeight = "600px";
    });
    expect((await findLayoutProblems(page)).map((p) => p.message)).toEqual([
      expect.stringMatching(/^form "登録" is 320×600 px with \d+ px of it empty \(at most 64\)/),
    ]);
    await page.close();
  });

  it("refuses Mantine's checkbox drawn without its stylesheets: the 300 px check mark, the row it stretches, the box over its label", async () => {
    const page = await pageWith(375, `<h1>同意</h1><form aria-label="同意">${UNSTYLED_CHECKBOX}</form>`);
    const problems = await findLayoutProblems(page);
    expect(problems.map((p) => p.rule)).toEqual(["graphic", "slack", "slack", "beside"]);
    expect(problems[0]?.message).toMatch(/^svg\.mantine-Checkbox-icon near "18歳以上です" is 375×263 px/);
    expect(problems[1]?.message).toMatch(/^form "同意" is 375×\d+ px with 2\d\d px of it empty/);
    expect(problems[2]?.message).toMatch(
      /^the row of a checkbox or radio div\.mantine-Checkbox-body "18歳以上です" is 375×\d+ px with 2\d\d px of it empty/,
    );
    // The check every browser test runs on every screen refuses it.
    await expect(checkA11y(page, "unstyled checkbox")).rejects.toThrow(/mantine-Checkbox-icon/);
    // With Checkbox.css but not InlineInput.css (the member shell had the one, not the other), the
    // box is drawn, small, over its label instead of beside it.
    await page.addStyleTag({ content: ".mantine-Checkbox-icon { width: 10px; height: 10px }" });
    expect((await findLayoutProblems(page)).map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^input#c1\.mantine-Checkbox-input near "18歳以上です" \(13×13 px at y \d+\) is not beside its label label\.mantine-Checkbox-label "18歳以上です"/,
      ),
    ]);
    await page.addStyleTag({
      content: ".mantine-Checkbox-body { display: flex; gap: 12px } .mantine-Checkbox-inner { display: flex }",
    });
    expect(await findLayoutProblems(page)).toEqual([]);
    await page.close();
  });
});
