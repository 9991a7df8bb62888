import { MSG } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { VerificationQueue } from "../../admin/verification/VerificationQueue";
import type { RouterOutputs } from "../../lib/api-types";
import { pointCost, verificationStatus } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { BulkSendDialog } from "../mail/BulkSendDialog";
import { UnreadEmails } from "../mail/UnreadEmails";
import { VerificationBanner } from "./VerificationBanner";
import { VerificationPage } from "./VerificationPage";

type Status = RouterOutputs["verification"]["status"];
const status = (s: Status["status"], extra: Partial<Status> = {}): Status => ({ ...verificationStatus(s), ...extra });

describe("VerificationBanner", () => {
  it.each([
    ["unverified", MSG.verificationBannerUnverified, MSG.verificationBannerLink],
    ["rejected", MSG.verificationBannerRejected, MSG.verificationBannerLink],
    ["pending", MSG.verificationBannerPending, "審査状況を見る"],
  ] as const)("%s: says what is locked and links to the page", async (s, text, link) => {
    renderWithProviders(<VerificationBanner />, { "verification.status": () => status(s) });
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: link })).toHaveAttribute("href", "/user/verification");
    // A named landmark, not an alert re-announced on every screen.
    expect(screen.getByRole("region", { name: /年齢確認/ })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("verified: nothing", async () => {
    const { calls } = renderWithProviders(<VerificationBanner />, { "verification.status": () => status("verified") });
    await waitFor(() => expect(calls.some((c) => c.path === "verification.status")).toBe(true));
    expect(screen.queryByTestId("verification-banner")).not.toBeInTheDocument();
  });
});

describe("VerificationPage", () => {
  it("explains the law, shows a rejection's reason and offers a new submission", async () => {
    renderWithProviders(<VerificationPage />, {
      "verification.status": () =>
        status("rejected", {
          rejectReason: "生年月日が読み取れませんでした。",
          submittedAt: new Date("2026-11-20T10:00:00Z"),
        }),
    });
    expect(await screen.findByText("理由：生年月日が読み取れませんでした。")).toBeInTheDocument();
    expect(screen.getByText(/出会い系サイト規制法/)).toBeInTheDocument();
    expect(screen.getByText("運転免許証")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "身分証をもう一度提出する" })).toBeInTheDocument();
    // Nothing chosen yet: nothing to submit.
    expect(screen.getByTestId("verification-submit")).toBeDisabled();
  });

  it("pending: 審査中 and no upload; a failed fetch offers a retry", async () => {
    let fail = true;
    renderWithProviders(<VerificationPage />, {
      "verification.status": () => {
        if (fail) throw new Error("down");
        return status("pending", { submittedAt: new Date("2026-11-20T10:00:00Z") });
      },
    });
    expect(await screen.findByText("年齢確認の状況を取得できませんでした")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("審査中")).toBeInTheDocument();
    expect(screen.queryByTestId("verification-submit")).not.toBeInTheDocument();
  });
});

describe("locked messages on the unread screen", () => {
  it("show the notice and the way to verify instead of reply / mark-read", async () => {
    const party = (id: string, name: string, role: "user" | "admin") => ({ id, name, photoLink: null, role });
    const locked = {
      id: "m1",
      body: MSG.lockedMessageNotice,
      locked: true,
      // Locked messages are sealed too, without a preview (decision 0027).
      sealed: true,
      preview: null,
      createdAt: new Date("2026-11-20T10:00:00Z"),
      isRead: false,
      hasReply: false,
      replyToId: null,
      from: party("11111111-1111-4111-8111-111111111111", "花子", "user"),
      to: party("33333333-3333-4333-8333-333333333333", "太郎", "user"),
    };
    renderWithProviders(<UnreadEmails />, {
      "messages.list": () => ({ messages: [locked], total: 1, totalCapped: false, page: 1, limit: 100, totalPages: 1 }),
      "scheduled.list": () => [],
    });
    expect(await screen.findByText(MSG.lockedMessageNotice)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "年齢確認して読む" })).toHaveAttribute("href", "/user/verification");
    expect(screen.queryByRole("button", { name: "返信" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "既読にする" })).not.toBeInTheDocument();
  });
});

describe("VerificationQueue (admin)", () => {
  type Entry = RouterOutputs["adminVerification"]["queue"]["entries"][number];
  const entry: Entry = {
    id: "44444444-4444-4444-8444-444444444444",
    submittedAt: new Date("2026-11-20T10:00:00Z"),
    hasImage: true,
    user: {
      id: "55555555-5555-4555-8555-555555555555",
      userID: "ab12cd34",
      name: "山田花子",
      gender: "female",
      birthday: "1995-04-12",
      age: 31,
      createdAt: new Date("2026-11-19T10:00:00Z"),
    },
  };
  const queue = (entries: Entry[]) => ({ entries, total: entries.length, page: 1, limit: 20, totalPages: 1 });

  it("shows the entry with the image and age; rejecting needs a reason, which is sent trimmed", async () => {
    const { calls } = renderWithProviders(<VerificationQueue />, {
      "adminVerification.queue": () => queue([entry]),
      "adminVerification.image": () => ({ dataUrl: "data:image/jpeg;base64,AAAA" }),
      "adminVerification.reject": () => ({ success: true, userId: entry.user.id, status: "rejected" }),
    });
    const card = await screen.findByRole("article", { name: "山田花子さんの申請" });
    expect(within(card).getByText("ab12cd34")).toBeInTheDocument();
    expect(within(card).getByText(/31歳/)).toBeInTheDocument();
    expect(await within(card).findByRole("img", { name: "山田花子さんが提出した身分証" })).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "却下する" }));
    const dialog = await screen.findByRole("dialog", { name: "年齢確認の却下" });
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    expect(await within(dialog).findByText(MSG.rejectReasonRequired)).toBeInTheDocument();
    expect(calls.some((c) => c.path === "adminVerification.reject")).toBe(false);
    await userEvent.click(within(dialog).getByLabelText(/却下の理由/));
    await userEvent.paste("  画像が不鮮明です  ");
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === "adminVerification.reject")?.input).toEqual({
        id: entry.id,
        reason: "画像が不鮮明です",
      }),
    );
  }, 20_000);

  it("approving asks the birth date read from the ID, prefilled with the registered one (decision 0043)", async () => {
    const { calls } = renderWithProviders(<VerificationQueue />, {
      "adminVerification.queue": () => queue([entry]),
      "adminVerification.image": () => ({ dataUrl: "data:image/jpeg;base64,AAAA" }),
      "adminVerification.approve": () => ({ success: true, userId: entry.user.id, status: "verified" }),
    });
    const card = await screen.findByRole("article", { name: "山田花子さんの申請" });
    await within(card).findByRole("img", { name: "山田花子さんが提出した身分証" });
    await userEvent.click(within(card).getByRole("button", { name: "承認する" }));
    const dialog = await screen.findByRole("dialog", { name: "年齢確認の承認" });
    const birthday = within(dialog).getByLabelText(/身分証の生年月日/);
    expect(birthday).toHaveValue("1995年4月12日");
    await userEvent.clear(birthday);
    await userEvent.type(birthday, "1996年5月13日");
    await userEvent.click(within(dialog).getByRole("button", { name: "承認する" }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === "adminVerification.approve")?.input).toEqual({
        id: entry.id,
        birthday: "1996-05-13",
      }),
    );
  }, 20_000);

  it("approving a member with no birth date: required, and under 18 refused before anything is sent", async () => {
    const unknown: Entry = { ...entry, user: { ...entry.user, birthday: null, age: null } };
    const { calls } = renderWithProviders(<VerificationQueue />, {
      "adminVerification.queue": () => queue([unknown]),
      "adminVerification.image": () => ({ dataUrl: "data:image/jpeg;base64,AAAA" }),
    });
    const card = await screen.findByRole("article", { name: "山田花子さんの申請" });
    expect(within(card).getByText(/未登録/)).toBeInTheDocument();
    await within(card).findByRole("img", { name: "山田花子さんが提出した身分証" });
    await userEvent.click(within(card).getByRole("button", { name: "承認する" }));
    const dialog = await screen.findByRole("dialog", { name: "年齢確認の承認" });
    const birthday = within(dialog).getByLabelText(/身分証の生年月日/);
    expect(birthday).toHaveValue("");
    await userEvent.click(within(dialog).getByRole("button", { name: "承認する" }));
    expect(await within(dialog).findByText(MSG.idBirthdayRequired)).toBeInTheDocument();
    const minor = new Date();
    minor.setFullYear(minor.getFullYear() - 17);
    await userEvent.type(birthday, `${minor.getFullYear()}/${minor.getMonth() + 1}/${minor.getDate()}`);
    await userEvent.click(within(dialog).getByRole("button", { name: "承認する" }));
    expect(await within(dialog).findByText(MSG.idBirthdayUnderAge)).toBeInTheDocument();
    expect(calls.some((c) => c.path === "adminVerification.approve")).toBe(false);
  }, 20_000);

  it("empty, and error with retry", async () => {
    let fail = true;
    renderWithProviders(<VerificationQueue />, {
      "adminVerification.queue": () => {
        if (fail) throw new Error("down");
        return queue([]);
      },
    });
    expect(await screen.findByText("年齢確認の申請を取得できませんでした")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("審査待ちの申請はありません")).toBeInTheDocument();
  });
});

describe("compose dialogs of a member not verified", () => {
  it.each([
    ["unverified", "年齢確認が完了するまで送信できません。"],
    ["pending", "年齢確認の審査中のため、まだ送信できません。"],
  ] as const)("%s: say why and link to the page; sending stays disabled", async (s, reason) => {
    renderWithProviders(<BulkSendDialog opened onClose={() => {}} />, {
      "verification.status": () => status(s),
      "messages.contacts": () => [
        { id: "11111111-1111-4111-8111-111111111111", name: "花子", photoLink: null, role: "user" as const },
      ],
      "reference.pointCosts.list": () => [pointCost("send_message", 48)],
    });
    const notice = await screen.findByTestId("send-lock-notice");
    expect(within(notice).getByRole("link", { name: "年齢確認へ進む" })).toHaveAttribute("href", "/user/verification");
    expect(screen.getByTestId("compose-invalid")).toHaveTextContent(reason);
    await userEvent.click(await screen.findByLabelText("花子"));
    await userEvent.click(screen.getByLabelText("メッセージ"));
    await userEvent.paste("こんにちは");
    expect(screen.getByRole("button", { name: "送信" })).toBeDisabled();
  });

  it("verified: no notice", async () => {
    renderWithProviders(<BulkSendDialog opened onClose={() => {}} />, {
      "verification.status": () => status("verified"),
      "messages.contacts": () => [],
      "reference.pointCosts.list": () => [],
    });
    await screen.findByText(/送信できる相手がいません/);
    expect(screen.queryByTestId("send-lock-notice")).not.toBeInTheDocument();
  });
});
