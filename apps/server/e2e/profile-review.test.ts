import { MSG } from "@enmusubi/shared";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";
import { inViewport, noSidewaysScroll } from "./viewport";

/**
 * 「プロフィール審査」 in the browser (decision 0044): a member's new photo waits, marked
 * 審査中 on their own dashboard and unseen by other members; the administrator finds it in the
 * queue (counted beside the menu entry), compares it with the current one and approves it, at
 * 375 and 1280 px; other members then see it.
 */

const e2e = useE2E();

async function photo(background: string): Promise<string> {
  const bytes = await sharp({ create: { width: 480, height: 640, channels: 3, background } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

type Card = { id: string; photoLink: string | null };

describe.skipIf(!hasChromium)("the profile review in the browser", () => {
  let admin = "";
  let viewer = "";
  const members: Array<{ userID: string; id: string; name: string }> = [];

  const cardOf = async (id: string, keyword: string) =>
    (
      await e2e.call<{ profiles: Card[] }>(viewer, "members.search", { keyword, excludeSameSex: true }, "GET")
    ).profiles.find((p) => p.id === id);

  // Seeding, before the tests: a viewer, and two members who each upload a new photo.
  beforeAll(async () => {
    admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.createMember(admin, "reviewviewer", "見る 太郎", "male");
    viewer = await e2e.token("reviewviewer");
    for (const [userID, name, colour] of [
      ["reviewhanako", "審査 花子", "#c8a"],
      ["reviewyuki", "審査 由紀", "#8ac"],
    ] as const) {
      const id = await e2e.createMember(admin, userID, name, "female");
      const token = await e2e.token(userID);
      await e2e.call(token, "profile.uploadPhoto", { data: await photo(colour) });
      members.push({ userID, id, name });
    }
  });

  it("a member's new photo waits: 審査中 on their dashboard, nothing for other members", async () => {
    for (const { id, name } of members) expect(await cardOf(id, name)).toMatchObject({ photoLink: null });
    const page = await e2e.memberPage("reviewhanako", 375);
    await page.getByTestId("review-pending").waitFor();
    await page.getByText(MSG.profilePhotoPendingNotice).waitFor();
    await settle(page);
    await e2e.screenshot(page, "profile-review-member-pending");
  });

  it("the administrator approves a photo in the queue, at 375 and 1280 px", async () => {
    for (const [index, width] of [375, 1280].entries()) {
      const member = members[index] as { userID: string; id: string };
      const page = await e2e.page(width);
      await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
      if (width === 1280) {
        // Counted beside the menu entry (対応待ち).
        await page.getByTestId("menu-count-profile-review").getByText("1").waitFor();
      }
      await e2e.visit(page, "/admin/profile-review", "審査待ち", "admin profile review queue");
      const entry = page.getByTestId("profile-review-entry").filter({ hasText: member.userID });
      await entry.waitFor();
      await entry.getByTestId("review-current").getByText("写真なし").waitFor();
      const proposed = entry.getByTestId("review-proposed").getByRole("img");
      await proposed.waitFor();
      await expect.poll(() => proposed.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await settle(page);
      await noSidewaysScroll(page);
      await inViewport(page, entry.getByRole("button", { name: "承認する" }));
      await e2e.screenshot(page, "admin-profile-review-queue");
      if (width === 375) {
        // The reject dialog (opened and cancelled): the reasons of the list.
        await entry.getByRole("button", { name: "却下する" }).click();
        const dialog = await e2e.dialog(page, "変更の却下", "admin profile review reject");
        await dialog.getByRole("radio", { name: "未成年と思われる内容" }).waitFor();
        await e2e.screenshot(page, "admin-profile-review-reject");
        await dialog.getByRole("button", { name: "キャンセル" }).click();
        await dialog.waitFor({ state: "detached" });
      }
      await entry.getByRole("button", { name: "承認する" }).click();
      await page.getByText(MSG.profileReviewApproved).first().waitFor();
      await entry.waitFor({ state: "detached" });
      await settle(page);
      await e2e.screenshot(page, `admin-profile-review-approved-${index}`);
      await page.close();

      // Other members see it now: its thumbnail on the card, served.
      const card = await cardOf(member.id, member.userID === "reviewhanako" ? "審査 花子" : "審査 由紀");
      expect(card?.photoLink).toMatch(/^\/uploads\/thumbs\/[0-9a-f]{32}\.jpg$/);
      expect((await fetch(`${e2e.baseUrl}${card?.photoLink}`)).status).toBe(200);
    }
    const waiting = await e2e.call<{ profileReviews: { value: number } }>(
      admin,
      "adminDashboard.waiting",
      undefined,
      "GET",
    );
    expect(waiting.profileReviews.value).toBe(0);
  });
});
