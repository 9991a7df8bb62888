import { MIN_AGE, MSG, pointCostAboveCap, yearsBefore } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";

/** A stored photo's full size as its owner and administrators get it: a short-lived signed URL (decision 0028). */
const SIGNED_PHOTO = /^\/uploads\/photos\/[0-9a-f]{32}\.jpg\?exp=\d+&sig=[\w-]+$/;

const e2e = useE2E();

/** Picks an option of a Mantine Select by its label. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole("dialog").getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).waitFor();
  await e2e.screen(page, `select ${label}`);
  await page.getByRole("option", { name: option, exact: true }).click();
}

async function adminPage(width = 1280) {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
  // /admin opens on the dashboard (decision 0036); these tests start from user management.
  await page.goto(`${e2e.baseUrl}/admin/user-management`);
  return page;
}

/** A user's row of the table, or their card on a phone. */
function row(page: Page, userID: string) {
  return page.locator(`[data-userid="${userID}"]`);
}

describe.skipIf(!hasChromium)("identity and reference data in the browser", () => {
  let member = { userID: "", password: "" };

  it("an admin adds a member with a camera photo; the member logs in and sees 100 points", async () => {
    const page = await adminPage();
    await page.getByRole("heading", { name: "ユーザー管理" }).waitFor();
    await page.getByRole("button", { name: "ユーザーを追加" }).click();
    const dialog = await e2e.dialog(page, "ユーザーを追加");
    await dialog.getByText(/ユーザーID: \S{4,}/).waitFor();
    // Required fields first: an empty name is refused with the catalogue's message.
    await dialog.getByRole("button", { name: "登録する" }).click();
    await dialog.getByText(MSG.nameRequired).waitFor();
    await e2e.screen(page, "dialog ユーザーを追加 (errors)");
    await dialog.getByLabel("名前").fill("カメラ 太郎");
    await dialog.getByLabel("メールアドレス").fill("camera-taro@example.jp");
    expect(await dialog.getByLabel("男性").isChecked()).toBe(true);
    // The administrator vouches for the age: which ID was checked and the birth date on it (decision 0043).
    await dialog.getByText(MSG.idDocumentKindRequired).waitFor();
    // A required Select: its label reads 「確認した身分証 *」.
    await dialog.getByLabel("確認した身分証").click();
    await page.getByRole("option", { name: "運転免許証", exact: true }).click();
    const idBirthday = dialog.getByLabel("身分証の生年月日");
    await idBirthday.fill("1990-01-15");
    await idBirthday.press("Tab");
    expect(await idBirthday.inputValue()).toBe("1990年1月15日");

    await dialog.getByRole("button", { name: "カメラで撮影" }).click();
    const camera = await e2e.dialog(page, "カメラで撮影");
    const shoot = camera.getByRole("button", { name: "撮影する" });
    await expect.poll(() => shoot.isEnabled(), { timeout: 10_000 }).toBe(true);
    await e2e.screen(page, "dialog カメラで撮影 (ready)");
    await shoot.click();
    await camera.waitFor({ state: "detached" });
    const preview = dialog.getByRole("img", { name: "写真のプレビュー" });
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toMatch(/^data:image\/jpeg;base64,/);
    await e2e.screenshot(page, "admin-add-user");

    await dialog.getByRole("button", { name: "登録する" }).click();
    const userID = (await dialog.getByTestId("created-userid").textContent()) ?? "";
    const password = (await dialog.getByTestId("created-password").textContent()) ?? "";
    expect(userID).not.toBe("");
    member = { userID, password };
    await e2e.screen(page, "dialog ユーザーを追加 (created)");
    // The dialog's own button (its corner ✕ is also named 閉じる).
    await dialog.locator("button", { hasText: "閉じる" }).click();

    const created = row(page, userID);
    await created.waitFor();
    expect(await created.textContent()).toContain("100pt");
    expect(await created.textContent()).toContain("20pt");
    // Administrators see the full-size photo through its signed URL (decision 0028).
    expect(await created.locator("img").getAttribute("src")).toMatch(SIGNED_PHOTO);
    // Admin rows have no delete button; member rows do.
    expect(await row(page, e2e.admin.userID).getByRole("button", { name: "削除" }).count()).toBe(0);
    expect(await created.getByRole("button", { name: "削除" }).count()).toBe(1);

    const memberPage = await e2e.page();
    await loginThroughUi(memberPage, e2e.baseUrl, userID, password);
    await memberPage.getByTestId("dashboard-points").waitFor();
    expect(await memberPage.getByTestId("dashboard-points").textContent()).toBe("100pt");
    expect(await memberPage.getByTestId("dashboard-name").textContent()).toBe("カメラ 太郎");
  });

  it("the admin edits the member's points and the ledger shows who changed what", async () => {
    const page = await adminPage();
    await row(page, member.userID).getByRole("button", { name: "編集", exact: true }).click();
    const dialog = await e2e.dialog(page, /ユーザー編集/);
    // Password rules from the catalogue.
    await dialog.getByLabel("新しいパスワード（変更する場合のみ）").fill("abc");
    await dialog.getByRole("button", { name: "更新する" }).click();
    await dialog.getByText(MSG.passwordTooShort).waitFor();
    await dialog.getByLabel("新しいパスワード（変更する場合のみ）").fill("");
    await dialog.getByRole("textbox", { name: /^ポイント/ }).fill("250");
    await dialog.getByRole("button", { name: "更新する" }).click();
    await page.getByText(MSG.userUpdated).first().waitFor();
    await expect.poll(async () => row(page, member.userID).textContent()).toContain("250pt");

    await row(page, member.userID).getByRole("button", { name: "履歴" }).click();
    const ledger = await e2e.dialog(page, /ポイント履歴/);
    await ledger.getByText("100 → 250（+150）").waitFor();
    expect(await ledger.textContent()).toContain(e2e.admin.userID);
    expect(await ledger.textContent()).toContain("管理者による変更");
    await e2e.screenshot(page, "admin-ledger");
  });

  it("the member edits the profile with a photo; under-18 birthdays are refused", async () => {
    const page = await e2e.page();
    await loginThroughUi(page, e2e.baseUrl, member.userID, member.password);
    expect(await page.getByTestId("dashboard-points").textContent()).toBe("250pt");
    // The profile photo's alternative text is the member's name.
    const avatar = page.getByTestId("dashboard-avatar").getByRole("img", { name: "カメラ 太郎" });
    const cameraPhoto = await avatar.getAttribute("src");
    expect(cameraPhoto).toMatch(/^\/uploads\/photos\//);
    await page.getByRole("button", { name: "プロフィールを編集" }).click();
    const dialog = await e2e.dialog(page, "プロフィールを編集", "member profile edit");
    await dialog.getByLabel("ニックネーム").fill("山田 花子");
    const minor = new Date();
    minor.setFullYear(minor.getFullYear() - 17);
    // A Japanese date picker: typed dates are read (ISO too) and shown as 年月日; Tab closes its calendar.
    const birthday = dialog.getByLabel("生年月日");
    await birthday.fill(minor.toISOString().slice(0, 10));
    await birthday.press("Tab");
    expect(await birthday.inputValue()).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    await dialog.getByRole("button", { name: "保存する" }).click();
    await dialog.getByText(MSG.underAge).waitFor();
    await e2e.screen(page, "dialog member profile edit (errors)");

    await birthday.fill("1995年4月1日");
    await birthday.press("Tab");
    await choose(page, "住所（都道府県）", "大阪府");
    await choose(page, "職業", "エンジニア");
    await choose(page, "年収", "400万円〜600万円");
    const photo = await sharp({ create: { width: 900, height: 1200, channels: 3, background: "#e58" } })
      .jpeg()
      .toBuffer();
    await dialog.locator('input[type="file"]').setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: photo });
    await dialog.getByText("写真の変更は「保存する」を押すと保存され、審査のあとほかの会員に表示されます。").waitFor();
    await e2e.screenshot(page, "member-profile-edit");
    // Staged only: the dashboard still shows the stored photo until save.
    expect(await avatar.getAttribute("src")).toBe(cameraPhoto);

    await dialog.getByRole("button", { name: "保存する" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("エンジニア").waitFor();
    expect(await page.getByTestId("dashboard-name").textContent()).toBe("山田 花子");
    expect(await page.locator("main").textContent()).toContain("大阪府");
    expect(await page.locator("main").textContent()).toContain("400万円〜600万円");
    // Stored as 1995-04-01, shown in Japanese.
    expect(await page.locator("main").textContent()).toContain("1995年4月1日");
    const saved = await page
      .getByTestId("dashboard-avatar")
      .getByRole("img", { name: "山田 花子" })
      .getAttribute("src");
    expect(saved).toMatch(SIGNED_PHOTO);
    expect(saved).not.toBe(cameraPhoto);
    // The new photo waits for the profile review (decision 0044): the camera photo stays the one
    // others see until an administrator approves; then it is gone from the server.
    expect((await page.request.get(`${e2e.baseUrl}${cameraPhoto}`)).status()).toBe(200);
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    const me = await e2e.call<{ id: string }>(
      await e2e.token(member.userID, member.password),
      "profile.me",
      undefined,
      "GET",
    );
    await e2e.approveProfile(admin, me.id);
    expect((await page.request.get(`${e2e.baseUrl}${cameraPhoto}`)).status()).toBe(404);
    await e2e.screenshot(page, "member-dashboard-profile");

    for (const width of [375, 1280]) {
      const p = await e2e.page(width);
      await loginThroughUi(p, e2e.baseUrl, member.userID, member.password);
      await p.getByTestId("dashboard-points").waitFor();
      await e2e.screenshot(p, "member-dashboard");
      await p.getByRole("button", { name: "プロフィールを編集" }).click();
      const edit = p.getByRole("dialog", { name: "プロフィールを編集" });
      await edit.getByLabel("生年月日").waitFor();
      await settle(p);
      await e2e.screenshot(p, "member-profile-edit");
      // The calendar is Japanese whatever the browser: decade → year → month, weeks from Sunday.
      await edit.getByLabel("生年月日").click();
      const calendar = p.locator("[data-dates-dropdown]");
      await calendar.getByRole("button", { name: "1995", exact: true }).click();
      await calendar.getByRole("button", { name: "4月", exact: true }).click();
      await calendar.getByText("1995年4月").waitFor();
      expect(await calendar.getByRole("columnheader").allTextContents()).toEqual([
        "日",
        "月",
        "火",
        "水",
        "木",
        "金",
        "土",
      ]);
      await e2e.screenshot(p, "member-birthday-picker");
      // Days under 18 cannot be picked: this month 18 years ago, days after today are disabled.
      // "Today" is the Japanese day (from 00:00 to 09:00 Asia/Tokyo, UTC's date is a day behind).
      const [year, month, lastDay] = yearsBefore(new Date(), MIN_AGE).split("-").map(Number) as [
        number,
        number,
        number,
      ];
      await edit.getByLabel("生年月日").fill(`${year}-${month}-1`);
      await p.keyboard.press("Tab");
      await edit.getByLabel("生年月日").click();
      await calendar.waitFor();
      // The calendar may reopen on the decade or directly on the typed month.
      const limitMonth = calendar.getByText(`${year}年${month}月`, { exact: true });
      await settle(p);
      if (!(await limitMonth.isVisible())) {
        await calendar.getByRole("button", { name: String(year), exact: true }).click();
        await calendar.getByRole("button", { name: `${month}月`, exact: true }).click();
      }
      await limitMonth.waitFor();
      const days = await calendar
        .locator("table button:not([data-outside])")
        .evaluateAll((buttons) => buttons.map((b) => [Number(b.textContent), b.hasAttribute("disabled")] as const));
      // This month's days: up to where the numbers start again (the next month's first days).
      const end = days.findIndex(([day], i) => i > 0 && day < (days[i - 1]?.[0] ?? 0));
      const shown = end === -1 ? days : days.slice(0, end);
      expect(shown.length).toBeGreaterThan(27);
      for (const [day, disabled] of shown) expect(disabled, `day ${day}`).toBe(day > lastDay);
      await p.keyboard.press("Tab");
      await p.keyboard.press("Escape");
      await p.getByRole("dialog").waitFor({ state: "detached" });
      await p.goto(`${e2e.baseUrl}/user/points-usage`);
      await p.getByRole("cell", { name: "掲示板閲覧" }).waitFor();
      await e2e.screenshot(p, "member-points-usage");
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });

  it("occupations and income ranges: add with Enter, empty refused, delete with confirmation", async () => {
    const page = await adminPage();
    await page.goto(`${e2e.baseUrl}/admin/occupation-management`);
    await page.getByRole("heading", { name: "職業管理" }).waitFor();
    const count = page.getByTestId("reference-count");
    await count.getByText(/\d+件/).waitFor();
    const before = Number((await count.textContent())?.match(/(\d+)件/)?.[1]);

    await page.getByRole("button", { name: "追加" }).click();
    await page.getByText(MSG.occupationRequired).waitFor();
    await page.getByLabel("職業名").fill("パイロット");
    await page.getByLabel("職業名").press("Enter");
    await page.getByText("職業を追加しました。").waitFor();
    await expect.poll(async () => count.textContent()).toContain(`${before + 1}件`);
    await page.getByRole("cell", { name: "パイロット" }).waitFor();
    await e2e.screenshot(page, "admin-occupations");
    // The banner vanishes after 3 s.
    await page.getByText("職業を追加しました。").waitFor({ state: "detached", timeout: 5000 });

    await page
      .getByRole("row", { name: /パイロット/ })
      .getByRole("button", { name: "削除" })
      .click();
    const confirmDelete = await e2e.dialog(page, /削除/, "delete confirmation");
    await confirmDelete.getByRole("button", { name: "削除する" }).click();
    await page.getByText("職業を削除しました。").waitFor();
    await expect.poll(async () => count.textContent()).toContain(`${before}件`);

    await page.goto(`${e2e.baseUrl}/admin/annual-income`);
    await page.getByRole("heading", { name: "年収管理" }).waitFor();
    await page.getByRole("button", { name: "追加" }).click();
    await page.getByText(MSG.annualIncomeRequired).waitFor();
    await page.getByRole("textbox", { name: "年収範囲" }).fill("3000万円以上");
    await page.getByRole("textbox", { name: "年収範囲" }).press("Enter");
    await page.getByRole("cell", { name: "3000万円以上" }).waitFor();
    await page
      .getByRole("row", { name: /3000万円以上/ })
      .getByRole("button", { name: "削除" })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "削除する" }).click();
    await page.getByRole("cell", { name: "3000万円以上" }).waitFor({ state: "detached" });
    // Both screens are in the admin menu (nothing reached only by its address).
    const menu = page.getByRole("navigation", { name: "管理メニュー" });
    expect(await menu.getByRole("link", { name: "年収管理" }).getAttribute("href")).toBe("/admin/annual-income");
    expect(await menu.getByRole("link", { name: "職業管理" }).getAttribute("href")).toBe(
      "/admin/occupation-management",
    );
  });

  it("point costs: inline edit, and a cost above the legal fee is refused", async () => {
    const page = await adminPage();
    await page.goto(`${e2e.baseUrl}/admin/point-costs`);
    const line = page.locator('tr[data-action="profile_view"]');
    await line.waitFor();
    expect(await page.getByTestId("add-point-cost").isHidden()).toBe(true);
    await line.getByRole("button", { name: "編集" }).click();
    await line.getByLabel("ポイント").fill("20");
    await line.getByRole("button", { name: "保存" }).click();
    await page.getByText(pointCostAboveCap(15)).waitFor();
    await line.getByLabel("ポイント").fill("12");
    await line.getByRole("button", { name: "保存" }).click();
    await page.getByText(MSG.pointCostUpdated).first().waitFor();
    await expect.poll(async () => line.getByTestId("point-cost-value").textContent()).toBe("12");
    await e2e.screenshot(page, "admin-point-costs");

    // The legal fee table's rows cannot be deleted (the server refuses): no button, a badge says why.
    for (const action of ["message_board_view", "profile_view", "movie_play"]) {
      const legalRow = page.locator(`tr[data-action="${action}"]`);
      expect(await legalRow.getByRole("button", { name: "削除" }).count()).toBe(0);
      await legalRow.getByText("料金表").waitFor();
    }
    await page.getByText(MSG.legalPointCostNotDeletable).waitFor();
    // Headings and numbers stay on one line (they broke as ポイン/ト, 上/限, 50/0).
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const broken = await page
        .locator("table th, [data-testid=point-cost-value], td[style*=nowrap]")
        .evaluateAll((cells) =>
          cells
            .filter((cell) => {
              const range = document.createRange();
              range.selectNodeContents(cell);
              const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
              return tops.size > 1;
            })
            .map((cell) => cell.textContent),
        );
      expect(broken, `cells wrapped at ${width}px`).toEqual([]);
    }

    // The member's points-usage table reads the same list.
    const memberPage = await e2e.page();
    await loginThroughUi(memberPage, e2e.baseUrl, member.userID, member.password);
    await memberPage.goto(`${e2e.baseUrl}/user/points-usage`);
    await memberPage.getByRole("row", { name: /プロフィール閲覧\s*12pt/ }).waitFor();
  });

  it("the admin edits their own profile: name required, new photo from a file, name saved", async () => {
    const page = await adminPage();
    await page.goto(`${e2e.baseUrl}/admin/profile-settings`);
    await page.getByRole("button", { name: "プロフィールを編集" }).click();
    const dialog = await e2e.dialog(page, "プロフィールを編集", "admin profile edit");
    await dialog.getByLabel("名前").fill(" ");
    await dialog.getByRole("button", { name: "保存する" }).click();
    await dialog.getByText(MSG.nameRequired).waitFor();
    await dialog.getByLabel("名前").fill("運営 管理者");
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#48c" } })
      .png()
      .toBuffer();
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "admin.png", mimeType: "image/png", buffer: photo });
    await dialog.getByRole("img", { name: "写真のプレビュー" }).waitFor();
    await dialog.getByRole("button", { name: "保存する" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("運営 管理者").waitFor();
    expect(await page.locator("main img").first().getAttribute("src")).toMatch(/^\/uploads\/photos\//);
  });

  it("the admin deletes a member after the irreversible confirmation; the member can no longer log in", async () => {
    const page = await adminPage();
    const target = row(page, member.userID);
    await target.getByRole("button", { name: "削除" }).click();
    const confirm = await e2e.dialog(page, "ユーザーの削除");
    await confirm.getByText("この操作は取り消せません。").waitFor();
    await confirm.getByRole("button", { name: "キャンセル" }).click();
    await target.waitFor();
    await target.getByRole("button", { name: "削除" }).click();
    await page.getByRole("dialog", { name: "ユーザーの削除" }).getByRole("button", { name: "削除する" }).click();
    await page.getByText(MSG.userDeleted).first().waitFor();
    await target.waitFor({ state: "detached" });

    const memberPage = await e2e.page();
    await memberPage.goto(`${e2e.baseUrl}/login`);
    await memberPage.getByLabel("ユーザーID").fill(member.userID);
    await memberPage.getByLabel("パスワード").fill(member.password);
    await memberPage.getByRole("button", { name: "ログイン", exact: true }).click();
    await memberPage.getByText("ログインに失敗しました。").waitFor();
  });

  it("renders the admin screens at 375 px and 1280 px", async () => {
    for (const width of [375, 1280]) {
      const page = await adminPage(width);
      for (const [name, route, text] of [
        ["admin-user-management", "/admin/user-management", "総ユーザー数"],
        ["admin-point-costs", "/admin/point-costs", "掲示板閲覧"],
        ["admin-annual-income", "/admin/annual-income", "登録件数"],
        ["admin-occupations", "/admin/occupation-management", "登録件数"],
        ["admin-profile", "/admin/profile-settings", "管理者プロフィール"],
      ] as const) {
        await page.goto(`${e2e.baseUrl}${route}`);
        await page.getByText(text).first().waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${route} overflows at ${width}px`).toBeLessThanOrEqual(0);
        await e2e.screenshot(page, name);
      }
      // The user-management dialogs, each once its opening transition has finished.
      const shoot = async (dialog: string | RegExp, name: string) => {
        await page.getByRole("dialog", { name: dialog }).waitFor();
        await settle(page);
        await e2e.screenshot(page, name);
      };
      const close = async () => {
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
      };
      await page.goto(`${e2e.baseUrl}/admin/user-management`);
      await page.getByRole("button", { name: "ユーザーを追加" }).click();
      await page
        .getByRole("dialog", { name: "ユーザーを追加" })
        .getByText(/ユーザーID: \S{4,}/)
        .waitFor();
      await shoot("ユーザーを追加", "admin-add-user");
      await close();
      await row(page, e2e.admin.userID).getByRole("button", { name: "履歴" }).click();
      await page
        .getByRole("dialog", { name: /ポイント履歴/ })
        .getByRole("table")
        .waitFor();
      await shoot(/ポイント履歴/, "admin-ledger");
      await close();
      await row(page, e2e.admin.userID).getByRole("button", { name: "編集", exact: true }).click();
      await shoot(/ユーザー編集/, "admin-edit-user");
    }
  });
});
