import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, useE2E } from "./harness";
import { inViewport, noHorizontalScroll } from "./viewport";

/**
 * The phone-first finish (decision 0032) in the browser: the profile-edit dropdowns
 * tapped on a touch screen at 375 px (they used to open and close every few frames), the member
 * header at 320 px with every badge, the verification notice instead of a refused board, a title
 * per screen and the skip link by keyboard, and the menus reaching every screen (ポイントの使い方,
 * ポイント設定, 年収管理, 職業管理) at 375 and 1280 px. Every screen and dialog is checked by axe.
 */
const e2e = useE2E();

const WIDTHS = [375, 1280] as const;

/**
 * Starts counting how often an open listbox disappears (the flicker: hidden by Mantine when its
 * input counts as detached) and how often the layout viewport changes width.
 */
async function watchFlicker(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { flicker: { hidden: number; widths: Set<number> } };
    w.flicker = { hidden: 0, widths: new Set([window.innerWidth]) };
    let shown = false;
    new MutationObserver(() => {
      const listbox = Array.from(document.querySelectorAll<HTMLElement>('[role="listbox"]')).some(
        (l) => l.offsetParent !== null,
      );
      if (shown && !listbox) w.flicker.hidden += 1;
      shown = listbox;
      w.flicker.widths.add(window.innerWidth);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

async function flicker(page: Page): Promise<{ hidden: number; widths: number[] }> {
  return page.evaluate(() => {
    const w = window as unknown as { flicker: { hidden: number; widths: Set<number> } };
    const result = { hidden: w.flicker.hidden, widths: [...w.flicker.widths] };
    w.flicker.hidden = 0;
    return result;
  });
}

describe.skipIf(!hasChromium)("a phone-first finish", () => {
  let admin = "";

  // Seeding, before the tests: members: one with an unread message.
  beforeAll(async () => {
    admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    const taro = await e2e.createMember(admin, "phonetaro", "電話 太郎", "male");
    const hanako = await e2e.createMember(admin, "phonehanako", "電話 花子", "female");
    await e2e.createMember(admin, "phonejiro", "電話 次郎", "male");
    await e2e.call(admin, "adminMessages.sendAsUser", { fromUserId: hanako, toUserId: taro, body: "はじめまして！" });
  });

  it("375 px, touch: 住所, 職業 and 年収 are tapped open, stay open, and take a value; saved", async () => {
    const page = await e2e.memberPage("phonejiro", 375, { touch: true });
    await page.getByRole("button", { name: "プロフィールを編集" }).tap();
    const dialog = await e2e.dialog(page, "プロフィールを編集", "member profile edit (touch)");
    await dialog.getByLabel("生年月日").waitFor();
    await watchFlicker(page);
    const choices: [string, string][] = [
      ["住所（都道府県）", "北海道"],
      ["職業", "エンジニア"],
      ["年収", "400万円〜600万円"],
    ];
    for (const [label, option] of choices) {
      // The previous choice closed its listbox: counting starts again here.
      await flicker(page);
      await dialog.getByLabel(label, { exact: true }).tap();
      const choice = page.getByRole("option", { name: option, exact: true });
      await choice.waitFor();
      // Left open a moment: the listbox must not hide itself, nor the page grow wider than the phone.
      await page.waitForTimeout(600);
      expect(await flicker(page)).toEqual({ hidden: 0, widths: [375] });
      await noHorizontalScroll(page);
      await inViewport(page, page.getByRole("listbox"));
      await e2e.screen(page, `select ${label} (touch)`);
      await choice.tap();
      await expect.poll(() => dialog.getByLabel(label, { exact: true }).inputValue()).toBe(option);
    }
    await dialog.getByRole("button", { name: "保存する" }).tap();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(MSG.profileUpdated).first().waitFor();
    const main = page.locator("main");
    for (const [, option] of choices) await main.getByText(option, { exact: true }).first().waitFor();
    await e2e.screenshot(page, "phone-profile-saved");
  });

  for (const width of [320, 375]) {
    it(`${width} px: the header keeps the unread count, the balance and 購入; ログアウト is in the menu`, async () => {
      const page = await e2e.memberPage("phonetaro", width, { touch: true });
      const unread = page.getByTestId("header-unread-count");
      await unread.waitFor();
      expect(await unread.textContent()).toContain("1件");
      expect(await page.getByLabel("所持ポイント").textContent()).toBe("100pt");
      await e2e.screenshot(page, "phone-header");
      await noHorizontalScroll(page);
      for (const badge of [unread, page.getByLabel("所持ポイント"), page.getByTestId("header-buy-points")]) {
        await inViewport(page, badge);
        // One line each: 「100pt」 no longer breaks in two.
        expect((await badge.boundingBox())?.height ?? 0).toBeLessThan(40);
      }
      await inViewport(page, page.getByRole("heading", { name: "縁結び" }));
      await page.getByRole("button", { name: "メニューを開く" }).tap();
      const drawer = await e2e.dialog(page, "メニュー", "member menu drawer");
      const logout = drawer.getByRole("button", { name: "ログアウト" });
      await logout.scrollIntoViewIfNeeded();
      await inViewport(page, logout);
      await inViewport(page, drawer.getByTestId("menu-unread-count"));
      await e2e.screenshot(page, "phone-menu");
    });
  }

  it("an unverified member opening the board is shown the verification notice and its link", async () => {
    const setup = await e2e.page();
    await e2e.visit(setup, "/signup", "男性会員登録");
    await setup.getByLabel("メールアドレス").fill("phone-new@example.jp");
    await setup.getByRole("checkbox", { name: /利用規約/ }).check();
    await setup.getByRole("checkbox", { name: /18歳以上/ }).check();
    await setup.getByRole("button", { name: "登録する" }).click();
    const mail = await e2e.waitForMail("phone-new@example.jp");
    const userID = /ユーザーID: (\S+)/.exec(mail.text)?.[1] ?? "";
    const password = /パスワード: (\S+)/.exec(mail.text)?.[1] ?? "";
    await setup.close();

    for (const width of WIDTHS) {
      const page = await e2e.page(width);
      await loginThroughUi(page, e2e.baseUrl, userID, password);
      await page.getByTestId("dashboard-points").waitFor();
      await e2e.visit(page, "/user/message-board-search", "掲示板検索", "board refused (unverified)");
      const notice = page.getByTestId("verification-refusal");
      await notice.waitFor();
      expect(await notice.textContent()).toContain(MSG.verificationRefusal);
      // Not the server's text naming a path, and no retry that would be refused again.
      expect(await page.locator("main").textContent()).not.toContain("（/user/verification）");
      expect(await page.getByRole("button", { name: "再試行" }).count()).toBe(0);
      await e2e.screenshot(page, "phone-board-refused");
      await notice.getByRole("link", { name: MSG.verificationBannerLink }).click();
      await page.waitForURL(/\/user\/verification$/);
      await page.getByRole("heading", { name: "年齢確認" }).first().waitFor();
      expect(await page.title()).toBe("年齢確認｜縁結び");
    }
  });

  it("every screen has its own title; the skip link is the first stop and jumps past the menu", async () => {
    const page = await e2e.memberPage("phonetaro", 1280);
    const screens: [string, string, string][] = [
      ["/user/dashboard", "ダッシュボード", "ダッシュボード｜縁結び"],
      ["/user/unread-emails", "未読メッセージ", "未読メッセージ｜縁結び"],
      ["/user/received-emails", "受信メッセージ", "受信メッセージ｜縁結び"],
      ["/user/sent-emails", "送信メッセージ", "送信メッセージ｜縁結び"],
      ["/user/points-usage", "ポイントの使い方", "ポイントの使い方｜縁結び"],
    ];
    for (const [route, heading, title] of screens) {
      await e2e.visit(page, route, heading, `title ${heading}`);
      await expect.poll(() => page.title()).toBe(title);
    }
    // Keyboard: from the top of the page, the first Tab reaches the skip link, Enter moves the focus
    // to the content, and the next Tab lands in the content, not on the 16 menu links.
    await page.goto(`${e2e.baseUrl}/user/received-emails`);
    await page.getByRole("heading", { name: "受信メッセージ" }).waitFor();
    await page.keyboard.press("Tab");
    const focused = () =>
      page.evaluate(() => ({
        text: document.activeElement?.textContent ?? "",
        id: document.activeElement?.id ?? "",
        inMain: !!document.activeElement?.closest("main"),
        inMenu: !!document.activeElement?.closest("nav"),
      }));
    expect((await focused()).text).toBe("本文へスキップ");
    await inViewport(page, page.getByRole("link", { name: "本文へスキップ" }));
    await e2e.screen(page, "skip link focused");
    await page.keyboard.press("Enter");
    expect((await focused()).id).toBe("main-content");
    await page.keyboard.press("Tab");
    const next = await focused();
    expect(next.inMain).toBe(true);
    expect(next.inMenu).toBe(false);

    // Public and legal screens are named too.
    const visitor = await e2e.page();
    await e2e.visit(visitor, "/login", "ユーザーID", "login");
    expect(await visitor.title()).toBe("ログイン｜縁結び");
    await e2e.visit(visitor, "/signup", "男性会員登録", "signup");
    expect(await visitor.title()).toBe("会員登録｜縁結び");

    // The admin shell: its own titles and skip link.
    const back = await e2e.page();
    await loginThroughUi(back, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    // The back-office opens on the operator's dashboard (decision 0036).
    await back.getByRole("heading", { name: "ダッシュボード" }).waitFor();
    await expect.poll(() => back.title()).toBe("ダッシュボード（管理画面）｜縁結び");
    await back.keyboard.press("Tab");
    expect((await back.evaluate(() => document.activeElement?.textContent ?? "")).trim()).toBe("本文へスキップ");
    await back.keyboard.press("Enter");
    expect(await back.evaluate(() => document.activeElement?.id)).toBe("main-content");
  });

  for (const width of WIDTHS) {
    it(`${width} px: the balance and the menu reach ポイントの使い方; the admin menu reaches three more screens`, async () => {
      const page = await e2e.memberPage("phonetaro", width);
      await page.getByLabel("所持ポイント").click();
      await page.waitForURL(/\/user\/points-usage$/);
      await page.getByRole("heading", { name: "ポイントの使い方" }).waitFor();
      await e2e.screen(page, "points usage");
      // The price list says メッセージ (the data migration renamed the seeded names).
      await page.getByRole("row", { name: /通常メッセージ送信/ }).waitFor();
      expect(await page.locator("main").textContent()).not.toContain("メール送信");
      expect(await page.locator("main").textContent()).toMatch(/\d+pt/);
      expect(await page.locator("main").textContent()).not.toMatch(/\d pt/);

      await page.goto(`${e2e.baseUrl}/user/dashboard`);
      await page.getByTestId("dashboard-points").waitFor();
      if (width < 768) {
        await page.getByRole("button", { name: "メニューを開く" }).click();
        await e2e.dialog(page, "メニュー", "member menu drawer");
      }
      const menu = page.getByRole("navigation", { name: "会員メニュー" });
      await menu.getByRole("link", { name: "ポイントの使い方" }).click();
      await page.getByRole("heading", { name: "ポイントの使い方" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/user/points-usage");

      const back = await e2e.page(width);
      await loginThroughUi(back, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
      await back.getByRole("heading", { name: "ダッシュボード" }).waitFor();
      const adminScreens: [string, string][] = [
        ["ポイント設定", "/admin/point-costs"],
        ["年収管理", "/admin/annual-income"],
        ["職業管理", "/admin/occupation-management"],
      ];
      for (const [label, path] of adminScreens) {
        if (width < 768) await back.getByRole("button", { name: "メニューを開く" }).click();
        const adminMenu = back.getByRole("navigation", { name: "管理メニュー" });
        await adminMenu.getByRole("link", { name: label }).click();
        await back.getByRole("heading", { name: label }).waitFor();
        expect(new URL(back.url()).pathname).toBe(path);
        await expect.poll(() => back.title()).toBe(`${label}（管理画面）｜縁結び`);
        await e2e.screen(back, `admin ${label}`);
      }
    });
  }
});
