import { describe, expect, it } from "vitest";
import { A11yError, checkA11y, hasChromium, useE2E } from "./harness";

const e2e = useE2E();

/** The check itself: a page with known faults must fail it, also under the app's CSP. */
describe.skipIf(!hasChromium)("the accessibility check of the browser tests", () => {
  it("fails on a deliberately bad page and names the rules", async () => {
    const page = await e2e.page(375);
    await page.setContent(`<!doctype html><html><head><title>bad</title></head><body>
      <main>
        <h1>悪い例</h1>
        <p style="color:#bbb;background:#fff">薄い灰色の文字</p>
        <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <button style="width:32px;height:32px"></button>
      </main></body></html>`);
    const failure = await checkA11y(page, "deliberately-bad").then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(A11yError);
    const ids = (failure as A11yError).report.violations.map((v) => v.id);
    expect(ids).toEqual(expect.arrayContaining(["color-contrast", "image-alt", "button-name", "html-has-lang"]));
    expect((failure as A11yError).message).toContain("color-contrast");
    await page.close();
  });

  it("checks the real app under its CSP: a low-contrast element added to /login fails, the page as built passes", async () => {
    const page = await e2e.page(1280);
    await e2e.visit(page, "/login", "ユーザーID");
    // Inline scripts are refused by the CSP; the check must still have run (it uses evaluate).
    const csp = (await page.request.get(`${e2e.baseUrl}/login`)).headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    await page.evaluate(() => {
      const p = document.createElement("p");
      p.textContent = "読みにくい注意書き";
      p.style.color = "#c8c8c8";
      // Inside the login card (white), where axe can measure the contrast exactly.
      document.querySelector("form")?.append(p);
    });
    await expect(checkA11y(page, "login-with-bad-text")).rejects.toThrow(/color-contrast/);
    await page.reload();
    await page.getByLabel("ユーザーID").waitFor();
    await checkA11y(page, "login-reloaded");
    await page.close();
  });
});
