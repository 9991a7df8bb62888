import type { Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

/**
 * What a paying member gets, walked in the browser: search leads with verified, active members (a member who
 * cannot read is not listed) and finds a word of a self-introduction; the paid detail shows the
 * 自己紹介 and a last-active bucket; enlarging the photo is quoted, paid once, then free; opening
 * another member's unread message is quoted and paid once, re-reading is free. Every screen and
 * dialog reached is checked by axe (the harness), at 375 px and 1280 px.
 */
const e2e = useE2E();

const INTRO = "週末はカフェ巡りをしています。\n映画も好きです。よろしくお願いします。";
const MESSAGE = "はじめまして。プロフィールを拝見してご連絡しました。今度お茶でもいかがですか？";

const points = async (page: Page) => Number.parseInt((await page.getByLabel("所持ポイント").textContent()) ?? "", 10);

describe.skipIf(!hasChromium)("what a paying member gets", () => {
  const cost: Record<string, number> = {};

  // Seeding, before the tests: a searcher, a verified and active member with a photo and a 自己紹介, a quieter one and a new sign-up.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.createMember(admin, "valuetaro", "価値 太郎", "male");
    await e2e.createMember(admin, "valuesaki", "価値 さき", "female");
    const hana = await e2e.createMember(admin, "valuehana", "価値 花子", "female");
    const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#c8956c" } })
      .jpeg()
      .toBuffer();
    await e2e.call(admin, "photos.adminUpload", {
      userId: hana,
      data: `data:image/jpeg;base64,${image.toString("base64")}`,
    });
    // 花子 signs in (her activity is now the newest) and writes her 自己紹介 and a message to 太郎.
    const hanaToken = await e2e.token("valuehana");
    await e2e.call(hanaToken, "profile.update", { selfIntroduction: INTRO });
    // Shown to others once approved in the profile review (decision 0044).
    await e2e.approveProfile(admin, hana);
    const taro = await e2e.call<{ id: string }>(await e2e.token("valuetaro"), "profile.me", undefined, "GET");
    await e2e.call(hanaToken, "messages.send", { recipientIds: [taro.id], body: MESSAGE });
    // A new sign-up: not age-verified, so cannot read messages, so is not listed to others.
    const signup = await fetch(`${e2e.baseUrl}/trpc/auth.signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: { email: "value-new@example.jp", gender: "female" } }),
    });
    expect(signup.ok).toBe(true);
    const costs = await e2e.call<{ actionName: string; pointCost: number }[]>(
      admin,
      "reference.pointCosts.list",
      undefined,
      "GET",
    );
    for (const action of ["profile_view", "profile_photo_view", "unread_mail_view"]) {
      cost[action] = costs.find((c) => c.actionName === action)?.pointCost ?? 0;
      expect(cost[action]).toBeGreaterThan(0);
    }
  });

  it("at 375 px search leads with the verified, active member and finds a word of her 自己紹介", async () => {
    const page = await e2e.memberPage("valuetaro", 375);
    await e2e.visit(page, "/user/profile-search", "プロフィール検索", "paid value search 375");
    const results = page.getByTestId("search-result");
    await results.first().waitFor();
    // Most recently active first; the unverified sign-up (「未設定」) is not listed at all.
    expect(await results.first().textContent()).toContain("価値 花子");
    expect(await results.count()).toBe(2);
    expect(await results.filter({ hasText: "未設定" }).count()).toBe(0);
    await page.getByRole("button", { name: "検索条件を開く" }).click();
    await settle(page);
    // A word of the 自己紹介, typed in hiragana: the kana fold finds カフェ.
    await page.getByLabel("キーワード（ニックネーム・自己紹介）").fill("かふぇ巡り");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await expect.poll(() => page.getByTestId("search-count").textContent()).toBe("1件");
    expect(await results.first().textContent()).toContain("価値 花子");
    await settle(page);
    await e2e.screenshot(page, "paid-value-search");
  });

  it("at 1280 px the paid detail shows the 自己紹介 and the last-active bucket; the photo is paid once, then free", async () => {
    const page = await e2e.memberPage("valuetaro", 1280);
    await e2e.visit(page, "/user/profile-search", "プロフィール検索", "paid value search 1280");
    const start = await points(page);
    await page.getByRole("button", { name: "価値 花子さんの詳細" }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "paid value view cost");
    await confirm.getByText(`プロフィールの閲覧には${cost.profile_view}ptが必要です。続けますか？`).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(page, "価値 花子さんのプロフィール", "paid value detail");
    await detail.getByText("週末はカフェ巡りをしています。", { exact: false }).waitFor();
    await detail.getByTestId("last-active").getByText("24時間以内", { exact: false }).waitFor();
    await expect.poll(() => points(page)).toBe(start - (cost.profile_view ?? 0));

    // The enlargement is quoted on its button, confirmed, paid once.
    const enlarge = detail.getByRole("button", { name: `写真を拡大（${cost.profile_photo_view}pt）` });
    await enlarge.click();
    const confirmPhoto = await e2e.dialog(page, "ポイントの消費", "paid value photo cost");
    await confirmPhoto.getByText(`写真の拡大には${cost.profile_photo_view}ptが必要です。続けますか？`).waitFor();
    await confirmPhoto.getByRole("button", { name: "続ける" }).click();
    const photo = await e2e.dialog(page, "価値 花子さんの写真", "paid value enlarged photo");
    const full = photo.getByRole("img", { name: "価値 花子さんの写真（拡大）" });
    await full.waitFor();
    await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    const afterPhoto = start - (cost.profile_view ?? 0) - (cost.profile_photo_view ?? 0);
    await expect.poll(() => points(page)).toBe(afterPhoto);
    await settle(page);
    await e2e.screenshot(page, "paid-value-photo");
    await photo.getByRole("button", { name: "閉じる" }).last().click();
    await photo.waitFor({ state: "detached" });

    // Again within 24 hours: quoted free, no confirmation, nothing taken.
    await detail.getByRole("button", { name: "写真を拡大（無料）" }).click();
    const again = await e2e.dialog(page, "価値 花子さんの写真");
    await again.getByRole("img", { name: "価値 花子さんの写真（拡大）" }).waitFor();
    expect(await page.getByText("ポイントの消費").count()).toBe(0);
    expect(await points(page)).toBe(afterPhoto);
    await again.getByRole("button", { name: "閉じる" }).last().click();
    await again.waitFor({ state: "detached" });
  });

  it("at 375 px the profile detail and the enlarged photo (free again within 24 hours) fit the screen", async () => {
    const page = await e2e.memberPage("valuetaro", 375);
    await e2e.visit(page, "/user/profile-search", "プロフィール検索", "paid value search 375 again");
    const start = await points(page);
    await page.getByRole("button", { name: "価値 花子さんの詳細" }).click();
    const detail = await e2e.dialog(page, "価値 花子さんのプロフィール", "paid value detail 375");
    await detail.getByText("週末はカフェ巡りをしています。", { exact: false }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "paid-value-detail");
    await detail.getByRole("button", { name: "写真を拡大（無料）" }).click();
    const photo = await e2e.dialog(page, "価値 花子さんの写真", "paid value enlarged photo 375");
    const full = photo.getByRole("img", { name: "価値 花子さんの写真（拡大）" });
    await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    await settle(page);
    await e2e.screenshot(page, "paid-value-photo");
    // The 640 px photo is scaled to the dialog, and nothing scrolls sideways.
    const box = await full.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await photo.getByRole("link", { name: "写真を保存" }).waitFor();
    expect(await points(page)).toBe(start);
    await photo.getByRole("button", { name: "閉じる" }).last().click();
    await photo.waitFor({ state: "detached" });
  });

  it("at 1280 px the unread message shows a preview line; opening it is quoted and paid once, re-reading is free", async () => {
    const page = await e2e.memberPage("valuetaro", 1280);
    await e2e.visit(page, "/user/unread-emails", "未読メッセージ", "paid value unread");
    const card = page.getByTestId("message-card").filter({ hasText: "価値 花子" });
    const preview = card.getByTestId("message-preview");
    await preview.waitFor();
    // The preview line only: never the whole message before it is paid for.
    expect(await preview.textContent()).toMatch(/^はじめまして。.*…$/);
    expect(await page.getByText("今度お茶でもいかがですか", { exact: false }).count()).toBe(0);
    const before = await points(page);
    await preview.click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "paid value open cost");
    await confirm.getByText(`未読メッセージの閲覧には${cost.unread_mail_view}ptが必要です。続けますか？`).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(page, "メッセージの詳細", "paid value message detail");
    await detail.getByTestId("message-detail-body").getByText(MESSAGE).waitFor();
    await expect.poll(() => points(page)).toBe(before - (cost.unread_mail_view ?? 0));
    await detail.getByRole("button", { name: "閉じる" }).last().click();
    await detail.waitFor({ state: "detached" });

    // Re-reading from the inbox: no confirmation, the body, nothing taken.
    await e2e.visit(page, "/user/received-emails", "受信メッセージ", "paid value received");
    await page.getByTestId("message-card").filter({ hasText: "価値 花子" }).getByTestId("message-preview").click();
    const reread = await e2e.dialog(page, "メッセージの詳細");
    await reread.getByTestId("message-detail-body").getByText(MESSAGE).waitFor();
    expect(await page.getByText("ポイントの消費").count()).toBe(0);
    expect(await points(page)).toBe(before - (cost.unread_mail_view ?? 0));
    await settle(page);
    await e2e.screenshot(page, "paid-value-reread");
  });
});
