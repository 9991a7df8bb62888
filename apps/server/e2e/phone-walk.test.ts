import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, it } from "vitest";
import { hasChromium, loginThroughUi, MEMBER_PASSWORD, settle, useE2E } from "./harness";

/**
 * Every public and member screen at 320 px, the narrowest phone the spec serves (§9): each is
 * checked (axe and the layout guard: no giant icon, no sideways scroll, no stretched form) and
 * saved to test-artifacts/screenshots/walk-<screen>-320.png, to be looked at. The member has
 * something on each screen (a conversation, a favourite, a footprint, a board post, an inquiry, a
 * blocked member) so that lists are drawn with rows, not only their empty states.
 */
const e2e = useE2E();
const WIDTH = 320;

/** Waits until nothing on the screen is loading (loaders, skeletons), then until it is still. */
async function quiet(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        !Array.from(document.querySelectorAll(".mantine-Loader-root, .mantine-Skeleton-root[data-visible]")).some(
          (el) => (el as HTMLElement).offsetParent !== null,
        ),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => {});
  await settle(page);
}

/** Opens `route`, waits for its level-2 heading `heading` and saves it as walk-<name>. */
async function walk(page: Page, route: string, heading: string | RegExp, name: string): Promise<void> {
  await page.goto(`${e2e.baseUrl}${route}`);
  await page.getByRole("heading", { level: 2, name: heading }).first().waitFor();
  await quiet(page);
  await e2e.screenshot(page, `walk-${name}`);
}

describe.skipIf(!hasChromium)(`every public and member screen at ${WIDTH} px`, () => {
  // Seeding, before the tests: a member with something on every screen.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    const taro = await e2e.createMember(admin, "walktaro", "歩く 太郎", "male");
    const hana = await e2e.createMember(admin, "walkhanako", "散歩 花子", "female");
    const sakura = await e2e.createMember(admin, "walksakura", "縁 さくら", "female");
    await e2e.createMember(admin, "walkgate", "同意 前子", "female");
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#c8956c" } })
      .jpeg()
      .toBuffer();
    await e2e.call(admin, "photos.adminUpload", {
      userId: hana,
      data: `data:image/jpeg;base64,${photo.toString("base64")}`,
    });
    await e2e.call(admin, "adminUsers.updateLegacy", { id: taro, points: 500 });

    const hanaToken = await e2e.token("walkhanako");
    const taroToken = await e2e.token("walktaro");
    await e2e.call(hanaToken, "profile.update", {
      selfIntroduction: "週末は公園を散歩しています。美味しいパン屋さんを探すのが好きです。",
    });
    // Shown to others once approved in the profile review (decision 0044).
    await e2e.approveProfile(admin, hana);
    await e2e.call(hanaToken, "messages.send", { recipientIds: [taro], body: "はじめまして！散歩が好きな花子です。" });
    await e2e.call(hanaToken, "members.viewProfile", { id: taro });
    await e2e.call(hanaToken, "board.create", {
      title: "週末に公園を散歩しませんか",
      content: "代々木公園あたりで、ゆっくり歩いてカフェで休憩できる方を探しています。",
    });
    await e2e.call(taroToken, "messages.send", { recipientIds: [hana], body: "こんにちは、太郎です。" });
    await e2e.call(taroToken, "members.addFavorite", { id: hana });
    await e2e.call(taroToken, "safety.block", { userId: sakura });
    await e2e.call(taroToken, "inquiries.create", {
      title: "ポイントについて",
      message: "購入したポイントの有効期限を教えてください。",
    });
  });

  it("the public screens: login, the password reissue, sign-up, the legal pages, the mail links", async () => {
    const page = await e2e.page(WIDTH);
    await page.goto(`${e2e.baseUrl}/login`);
    await page.getByLabel("ユーザーID").waitFor();
    await quiet(page);
    await e2e.screenshot(page, "walk-login");
    await page.getByText("パスワードをお忘れの方はこちら").click();
    await e2e.dialog(page, "パスワードの再発行", "walk forgot password");
    await settle(page);
    await e2e.screenshot(page, "walk-forgot-password");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    for (const [gender, name] of [
      ["男性", "walk-signup-male"],
      ["女性", "walk-signup-female"],
    ] as const) {
      await page.goto(`${e2e.baseUrl}/login`);
      await page.getByRole("button", { name: gender, exact: true }).click();
      await page.getByText(`${gender}会員登録`).first().waitFor();
      await quiet(page);
      await e2e.screenshot(page, name);
    }
    // The sign-up refused for the missing consents: the errors under the boxes.
    await page.getByLabel("メールアドレス").fill("walk@example.jp");
    await page.getByRole("button", { name: "登録する" }).click();
    await page.getByText(MSG.termsConsentRequired).waitFor();
    await settle(page);
    await e2e.screenshot(page, "walk-signup-consent-missing");

    for (const slug of ["terms-of-service", "privacy-policy", "transaction-law", "age-verification"]) {
      await page.goto(`${e2e.baseUrl}/legal/${slug}`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await quiet(page);
      await e2e.screenshot(page, `walk-legal-${slug}`);
    }
    for (const [route, name] of [
      ["/email-change/confirm?token=broken", "walk-email-change-confirm"],
      ["/notice-mail/stop?token=broken", "walk-notice-mail-stop"],
    ] as const) {
      await page.goto(`${e2e.baseUrl}${route}`);
      await page.getByRole("alert").waitFor();
      await quiet(page);
      await e2e.screenshot(page, name);
    }
  });

  it("the first sign-in's consent gate", async () => {
    const page = await e2e.page(WIDTH);
    await loginThroughUi(page, e2e.baseUrl, "walkgate", MEMBER_PASSWORD, { consent: false });
    await page.getByRole("checkbox", { name: /18歳以上/ }).waitFor();
    await quiet(page);
    await e2e.screenshot(page, "walk-consent-gate");
  });

  it("the member screens, the menu and the profile editor", async () => {
    const page = await e2e.memberPage("walktaro", WIDTH);
    await quiet(page);
    await e2e.screenshot(page, "walk-dashboard");
    await page.getByRole("button", { name: "メニューを開く" }).click();
    await e2e.dialog(page, "メニュー", "walk menu");
    await settle(page);
    await e2e.screenshot(page, "walk-menu");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "プロフィールを編集" }).click();
    // A full-page screenshot draws the fixed header where the page was scrolled to: from the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.dialog(page, /プロフィール/, "walk profile edit");
    await settle(page);
    await e2e.screenshot(page, "walk-profile-edit");
    await page.keyboard.press("Escape");

    const screens = [
      ["profile-settings", "プロフィール設定"],
      ["profile-search", "プロフィール検索"],
      ["favorite-list", "お気に入り一覧"],
      ["footprints", "足あと"],
      ["blocked-list", "ブロックリスト"],
      ["messages", "メッセージ"],
      ["unread-emails", "未読メッセージ"],
      ["received-emails", "受信メッセージ"],
      ["sent-emails", "送信メッセージ"],
      ["message-board-posting", "掲示板投稿"],
      ["message-board-search", "掲示板検索"],
      ["inquiry", "お問い合わせ"],
      ["inquiry-history", "お問い合わせ履歴"],
      ["points-usage", "ポイントの使い方"],
      ["point-purchase", "ポイント購入"],
      ["verification", "年齢確認"],
    ] as const;
    for (const [path, heading] of screens) await walk(page, `/user/${path}`, heading, path);

    // The board, entered (the entry's question above), with 花子's post.
    await page.goto(`${e2e.baseUrl}/user/message-board-search`);
    await page.getByRole("button", { name: "続ける" }).click();
    await page.getByText("週末に公園を散歩しませんか").first().waitFor();
    await quiet(page);
    await e2e.screenshot(page, "walk-board");

    // One conversation, from the list.
    await page.goto(`${e2e.baseUrl}/user/messages`);
    await page.getByText("散歩 花子").first().click();
    await page.getByText("こんにちは、太郎です。").first().waitFor();
    await quiet(page);
    await e2e.screenshot(page, "walk-conversation");
  });
});
