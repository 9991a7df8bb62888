import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

const e2e = useE2E();

interface Focus {
  name: string;
  visible: boolean;
  inDialog: boolean;
}

/** What has the keyboard focus: its accessible name (roughly), whether the focus shows, where it is. */
async function focused(page: Page): Promise<Focus> {
  // Focus styles fade in (border colour transitions); read them once still.
  await settle(page);
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "", visible: true, inDialog: false };
    const labelled = el.getAttribute("aria-labelledby");
    const input = el as HTMLInputElement;
    const name = (
      el.getAttribute("aria-label") ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      input.labels?.[0]?.textContent ??
      el.textContent ??
      ""
    ).trim();
    const probe = document.createElement("span");
    probe.style.color = "var(--mantine-primary-color-filled)";
    document.body.append(probe);
    const primary = getComputedStyle(probe).color;
    probe.remove();
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 1;
    // Mantine fields show focus with the primary colour on their border (the input or its wrapper).
    const border = [el, el.parentElement, el.parentElement?.parentElement].some(
      (node) => node && getComputedStyle(node).borderTopColor === primary,
    );
    return { name, visible: outline || border, inDialog: !!el.closest('[role="dialog"]') };
  });
}

/** Presses Tab (or Shift+Tab) until `name` has the focus; every stop on the way must show its focus. */
async function tabTo(page: Page, name: RegExp, backwards = false): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const focus = await focused(page);
    seen.push(focus.name);
    expect(focus.visible, `keyboard focus on "${focus.name}" is not visible`).toBe(true);
    if (name.test(focus.name)) return;
  }
  throw new Error(`${name} not reached with the keyboard; focus went through: ${seen.join(" → ")}`);
}

/** Tabs around an open dialog: the focus never leaves it, forwards or backwards. */
async function expectFocusTrapped(page: Page, stops = 15): Promise<void> {
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 0; i < stops; i++) {
      await page.keyboard.press(key);
      const focus = await focused(page);
      expect(focus.inDialog, `${key} ×${i + 1} left the dialog for "${focus.name}"`).toBe(true);
      expect(focus.visible, `keyboard focus on "${focus.name}" is not visible`).toBe(true);
    }
  }
}

async function keyboardLogin(page: Page, userID: string, password: string): Promise<void> {
  await e2e.visit(page, "/login", "ユーザーID", "login");
  await tabTo(page, /^ユーザーID/);
  await page.keyboard.type(userID);
  await tabTo(page, /^パスワード/);
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/(admin|user)(\/|$)/);
}

describe.skipIf(!hasChromium)("keyboard only", () => {
  it("a member: login → dashboard → profile edit → save, focus trapped in the dialog and returned; Escape closes", async () => {
    // A member to walk with (set up with the mouse: signup and the mailed credentials).
    const setup = await e2e.page();
    await e2e.visit(setup, "/signup", "男性会員登録");
    await setup.getByLabel("メールアドレス").fill("keyboard@example.jp");
    await setup.getByRole("checkbox", { name: /利用規約/ }).check();
    await setup.getByRole("checkbox", { name: /18歳以上/ }).check();
    await setup.getByRole("button", { name: "登録する" }).click();
    const mail = await e2e.waitForMail("keyboard@example.jp");
    const userID = /ユーザーID: (\S+)/.exec(mail.text)?.[1] ?? "";
    const password = /パスワード: (\S+)/.exec(mail.text)?.[1] ?? "";
    await setup.close();

    const page = await e2e.page();
    await keyboardLogin(page, userID, password);
    await page.getByTestId("dashboard-points").waitFor();

    await tabTo(page, /^プロフィールを編集$/);
    await page.keyboard.press("Enter");
    const dialog = await e2e.dialog(page, "プロフィールを編集", "member profile edit");
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true);
    await expectFocusTrapped(page);

    await tabTo(page, /^ニックネーム/);
    await page.keyboard.press("Control+A");
    await page.keyboard.type("鍵盤 花子");
    await tabTo(page, /^保存する$/);
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => page.getByTestId("dashboard-name").textContent()).toBe("鍵盤 花子");
    // Focus is back on the button that opened the dialog.
    expect((await focused(page)).name).toBe("プロフィールを編集");

    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "プロフィールを編集" }).waitFor();
    // Escape from inside the dialog, once its trap has taken focus (as a keyboard user would): pressed
    // sooner, the trap's first focus came after the close and left focus nowhere (seen once in CI).
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect((await focused(page)).name).toBe("プロフィールを編集");
  });

  it("an administrator: login → add user → cancel, focus trapped and returned; Escape closes", async () => {
    const page = await e2e.page();
    await keyboardLogin(page, e2e.admin.userID, e2e.admin.password);
    // The back-office opens on the dashboard (decision 0036): the menu leads to the user list.
    await page.getByRole("heading", { name: "ダッシュボード" }).waitFor();
    await tabTo(page, /^ユーザー管理$/);
    await page.keyboard.press("Enter");
    await page.getByTestId("user-total").getByText(/\d+人/).waitFor();
    const total = await page.getByTestId("user-total").textContent();

    await tabTo(page, /^ユーザーを追加$/);
    await page.keyboard.press("Enter");
    const dialog = await e2e.dialog(page, "ユーザーを追加");
    await dialog.getByText(/ユーザーID: \S{4,}/).waitFor();
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true);
    await expectFocusTrapped(page);

    await tabTo(page, /^キャンセル$/);
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    expect((await focused(page)).name).toBe("ユーザーを追加");

    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "ユーザーを追加" }).waitFor();
    // Escape from inside the dialog, once its trap has taken focus (as a keyboard user would): pressed
    // sooner, the trap's first focus came after the close and left focus nowhere (seen once in CI).
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect((await focused(page)).name).toBe("ユーザーを追加");
    // Nothing was created.
    expect(await page.getByTestId("user-total").textContent()).toBe(total);
  });
});
