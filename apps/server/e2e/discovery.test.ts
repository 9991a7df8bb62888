import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

const e2e = useE2E();

/** Test data goes through the API (the screens are driven in the browser). */

const points = (page: Page) => page.getByLabel("所持ポイント").textContent();

describe.skipIf(!hasChromium)("discovery in the browser", () => {
  let viewCost = 0;
  let sendCost = 0;

  // Seeding, before the tests: members of both genders.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.createMember(admin, "searchtaro", "検索 太郎", "male");
    await e2e.createMember(admin, "searchhanako", "検索 花子", "female");
    await e2e.createMember(admin, "searchsakura", "縁 さくら", "female");
    await e2e.createMember(admin, "searchjiro", "検索 次郎", "male");
    const costs = await e2e.call<{ actionName: string; pointCost: number }[]>(
      admin,
      "reference.pointCosts.list",
      undefined,
      "GET",
    );
    viewCost = costs.find((c) => c.actionName === "profile_view")?.pointCost ?? 0;
    sendCost = costs.find((c) => c.actionName === "send_message")?.pointCost ?? 0;
    expect(viewCost).toBeGreaterThan(0);
    expect(sendCost).toBeGreaterThan(0);
  });

  it("at 375 px a member searches, opens a profile (cost shown, balance drops), favourites it and writes from the favourites list", async () => {
    const page = await e2e.memberPage("searchtaro", 375);
    expect(await points(page)).toBe("100pt");
    // The 検索 group of the menu (in the drawer at 375 px).
    await page.getByRole("button", { name: "メニューを開く" }).click();
    const drawer = await e2e.dialog(page, "メニュー", "member drawer");
    for (const name of ["プロフィール検索", "お気に入り一覧", "足あと"])
      await drawer.getByRole("link", { name }).waitFor();
    await drawer.getByRole("link", { name: "プロフィール検索" }).click();
    await page.getByRole("heading", { name: "プロフィール検索" }).waitFor();

    // Same sex excluded by default: the women only, never the searcher or the other man.
    const results = page.getByTestId("search-result");
    await results.filter({ hasText: "検索 花子" }).waitFor();
    await results.filter({ hasText: "縁 さくら" }).waitFor();
    expect(await results.filter({ hasText: "検索 次郎" }).count()).toBe(0);
    expect(await results.filter({ hasText: "検索 太郎" }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "discovery-search");

    // At 375 px the filters fold away behind a toggle, so the results start near the top.
    await page.getByRole("button", { name: "検索条件を開く" }).click();
    // No match: the spec's message.
    await page.getByLabel("キーワード（ニックネーム・自己紹介）").fill("該当者なし");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await page.getByText("検索条件に一致するプロフィールが見つかりませんでした。").waitFor();
    await e2e.screen(page, "discovery search (no results)");

    // Keyword 花子: one result; the list and card views show it too.
    await page.getByLabel("キーワード（ニックネーム・自己紹介）").fill("花子");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await expect.poll(() => page.getByTestId("search-count").textContent()).toBe("1件");
    await page.getByText("リスト", { exact: true }).click();
    await page.getByRole("button", { name: "検索 花子さんにメッセージ" }).waitFor();
    await e2e.screen(page, "discovery search list view");
    await page.getByText("カード", { exact: true }).click();
    await page.getByRole("button", { name: "検索 花子さんの詳細" }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "discovery-search-card");

    // The paid detail: the cost first, then the detail; the balance drops.
    await page.getByRole("button", { name: "検索 花子さんの詳細" }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "discovery view cost");
    await confirm.getByText(`プロフィールの閲覧には${viewCost}ptが必要です。続けますか？`).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(page, "検索 花子さんのプロフィール", "discovery profile detail");
    await detail.getByText("女性").waitFor();
    await expect.poll(() => points(page)).toBe(`${100 - viewCost}pt`);
    await settle(page);
    await e2e.screenshot(page, "discovery-profile-detail");
    await detail.getByRole("button", { name: "閉じる" }).last().click();
    await detail.waitFor({ state: "detached" });

    // A re-view within 24 hours is not quoted a price (decision 0026): the detail opens, nothing taken.
    await page.getByRole("button", { name: "検索 花子さんの詳細" }).click();
    const again = await e2e.dialog(page, "検索 花子さんのプロフィール");
    expect(await page.getByText("ポイントの消費").count()).toBe(0);
    expect(await points(page)).toBe(`${100 - viewCost}pt`);
    await again.getByRole("button", { name: "閉じる" }).last().click();
    await again.waitFor({ state: "detached" });

    // Favourite toggle.
    await page.getByRole("button", { name: "検索 花子さんをお気に入りに追加" }).click();
    await page.getByText("お気に入りに追加しました").waitFor();
    const unfavourite = page.getByRole("button", { name: "検索 花子さんをお気に入りから外す" });
    await unfavourite.waitFor();
    expect(await unfavourite.getAttribute("aria-pressed")).toBe("true");

    // Favourites: the card, a message with the 20-emoji picker, the cost confirmed.
    await e2e.visit(page, "/user/favorite-list", "お気に入り一覧", "discovery favourites");
    const card = page.getByTestId("favorite-card").filter({ hasText: "検索 花子" });
    await card.waitFor();
    await settle(page);
    await e2e.screenshot(page, "discovery-favourites");
    await card.getByRole("button", { name: "検索 花子さんにメッセージ" }).click();
    const dialog = await e2e.dialog(page, "検索 花子さんへメッセージ", "discovery favourite message");
    await dialog.getByText(`送信には${sendCost}ptが必要です`).waitFor();
    await dialog.getByLabel("メッセージ").fill("はじめまして、太郎です");
    await dialog.getByRole("button", { name: "絵文字" }).click();
    expect(await dialog.getByRole("button", { name: /^絵文字 .* を挿入$/ }).count()).toBe(20);
    await settle(page);
    await e2e.screenshot(page, "discovery-favourite-message");
    await dialog.getByRole("button", { name: "送信", exact: true }).click();
    const confirmSend = await e2e.dialog(page, "ポイントの消費", "discovery send cost");
    await confirmSend.getByText(`メッセージの送信には${sendCost}ptが必要です。続けますか？`).waitFor();
    await confirmSend.getByRole("button", { name: "続ける" }).click();
    await page.getByText(MSG.messageSent).first().waitFor();
    await expect.poll(() => points(page)).toBe(`${100 - viewCost - sendCost}pt`);
  });

  it("the viewed member sees the footprint and can open the viewer's profile", async () => {
    const page = await e2e.memberPage("searchhanako", 1280);
    await page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name: "足あと" }).click();
    await page.getByRole("heading", { name: "足あと" }).waitFor();
    const row = page.getByTestId("footprint").filter({ hasText: "検索 太郎" });
    await row.waitFor();
    await settle(page);
    await e2e.screenshot(page, "discovery-footprints");
    await row.getByRole("button", { name: "検索 太郎さんのプロフィールを見る" }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費");
    await confirm.getByRole("button", { name: "続ける" }).click();
    await e2e.dialog(page, "検索 太郎さんのプロフィール");
    await expect.poll(() => points(page)).toBe(`${100 - viewCost}pt`);
  });

  it("at 1280 px: the search grid, favourites and an empty favourites list", async () => {
    const page = await e2e.memberPage("searchtaro", 1280);
    await e2e.visit(page, "/user/profile-search", "検索 花子", "discovery search 1280");
    await settle(page);
    await e2e.screenshot(page, "discovery-search");
    await e2e.visit(page, "/user/favorite-list", "お気に入り一覧", "discovery favourites 1280");
    await page.getByTestId("favorite-card").filter({ hasText: "検索 花子" }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "discovery-favourites");
    // Remove after confirmation.
    await page.getByRole("button", { name: "検索 花子さんを削除" }).click();
    const confirm = await e2e.dialog(page, "お気に入りから削除", "discovery favourite remove");
    await confirm.getByRole("button", { name: "削除する" }).click();
    await page.getByText("お気に入りから削除しました").waitFor();
    await page.getByText("お気に入りに登録した会員はいません。").waitFor();
    await e2e.screen(page, "discovery favourites (empty)");

    const other = await e2e.memberPage("searchsakura", 375);
    await e2e.visit(other, "/user/footprints", "まだ足あとはありません。", "discovery footprints (empty)");
  });
});
