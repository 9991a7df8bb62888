import { MSG } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { ProfileReviewNotice } from "../../member/ProfileReviewNotice";
import { me } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { ProfileReviewQueue } from "./ProfileReviewQueue";

type Entry = RouterOutputs["adminProfileReview"]["queue"]["entries"][number];
const user = {
  id: "55555555-5555-4555-8555-555555555555",
  userID: "ab12cd34",
  name: "山田花子",
  gender: "female" as const,
  age: 31,
  createdAt: new Date("2026-11-19T10:00:00Z"),
};
const photoEntry: Entry = {
  id: "44444444-4444-4444-8444-444444444444",
  kind: "photo",
  submittedAt: new Date("2026-11-20T10:00:00Z"),
  user,
  current: { photoUrl: "/uploads/photos/old.jpg?sig=a", introduction: null },
  proposed: { photoUrl: "/uploads/photos/new.jpg?sig=b", introduction: null },
};
const textEntry: Entry = {
  id: "66666666-6666-4666-8666-666666666666",
  kind: "introduction",
  submittedAt: new Date("2026-11-21T10:00:00Z"),
  user,
  current: { photoUrl: null, introduction: "" },
  proposed: { photoUrl: null, introduction: "はじめまして。\n猫が好きです。" },
};
const queue = (entries: Entry[]) => ({ entries, total: entries.length, page: 1, limit: 20, totalPages: 1 });
const decided = (kind: Entry["kind"]) => ({ success: true as const, userId: user.id, kind });

describe("ProfileReviewQueue (admin)", () => {
  it("shows the current and the new photo side by side and approves", async () => {
    const { calls } = renderWithProviders(<ProfileReviewQueue />, {
      "adminProfileReview.queue": () => queue([photoEntry, textEntry]),
      "adminProfileReview.approve": () => decided("photo"),
    });
    const card = await screen.findByRole("article", { name: "山田花子さんのプロフィール写真の変更" });
    expect(within(card).getByRole("img", { name: "山田花子さんの現在の写真" })).toHaveAttribute(
      "src",
      photoEntry.current.photoUrl,
    );
    expect(within(card).getByRole("img", { name: "山田花子さんの新しい写真" })).toHaveAttribute(
      "src",
      photoEntry.proposed.photoUrl,
    );
    const text = screen.getByRole("article", { name: "山田花子さんの自己紹介の変更" });
    expect(within(text).getByText("（未記入）")).toBeInTheDocument();
    expect(within(text).getByText(/猫が好きです/)).toBeInTheDocument();
    expect(screen.getByText("審査待ち 2件")).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "承認する" }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === "adminProfileReview.approve")?.input).toEqual({ id: photoEntry.id }),
    );
  }, 20_000);

  it("rejects with a reason from the list; その他 needs a note", async () => {
    const { calls } = renderWithProviders(<ProfileReviewQueue />, {
      "adminProfileReview.queue": () => queue([textEntry]),
      "adminProfileReview.reject": () => decided("introduction"),
    });
    const card = await screen.findByRole("article", { name: "山田花子さんの自己紹介の変更" });
    await userEvent.click(within(card).getByRole("button", { name: "却下する" }));
    const dialog = await screen.findByRole("dialog", { name: "変更の却下" });
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    expect(await within(dialog).findByText(MSG.profileRejectReasonRequired)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("radio", { name: "その他" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    expect(await within(dialog).findByText(MSG.profileRejectNoteRequired)).toBeInTheDocument();
    expect(calls.some((c) => c.path === "adminProfileReview.reject")).toBe(false);
    await userEvent.click(within(dialog).getByRole("radio", { name: "連絡先・外部サービスの記載" }));
    await userEvent.click(within(dialog).getByLabelText(/補足/));
    await userEvent.paste("  IDは書けません  ");
    await userEvent.click(within(dialog).getByRole("button", { name: "却下する" }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === "adminProfileReview.reject")?.input).toEqual({
        id: textEntry.id,
        reason: "contact_details",
        note: "IDは書けません",
      }),
    );
  }, 20_000);

  it("empty", async () => {
    renderWithProviders(<ProfileReviewQueue />, { "adminProfileReview.queue": () => queue([]) });
    expect(await screen.findByText("審査待ちの変更はありません")).toBeInTheDocument();
  });
});

describe("ProfileReviewNotice (member)", () => {
  it("says what waits and why the last change was not approved", () => {
    renderWithProviders(
      <ProfileReviewNotice
        user={me({
          review: {
            photo: { status: "pending", submittedAt: new Date() },
            introduction: {
              status: "rejected",
              reason: "contact_details",
              reasonLabel: "連絡先・外部サービスの記載",
              note: "IDは書けません",
              decidedAt: new Date(),
            },
          },
        })}
      />,
    );
    expect(screen.getByText(MSG.profilePhotoPendingNotice)).toBeInTheDocument();
    expect(
      screen.getByText(`自己紹介：${MSG.profileReviewRejectedPrefix}連絡先・外部サービスの記載（IDは書けません）`),
    ).toBeInTheDocument();
  });
});
