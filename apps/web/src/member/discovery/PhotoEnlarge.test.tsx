import { Notifications } from "@mantine/notifications";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it } from "vitest";
import { POINTS_DEDUCTED_EVENT, type PointsDeductedDetail } from "../../lib/points";
import { publicProfile } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { ProfileDetailModal } from "./ProfileDetailModal";

/** Decision 0028: the detail shows the thumbnail; the full-size image is paid for. */
const THUMB = "/uploads/thumbs/0123456789abcdef0123456789abcdef.jpg";
const FULL = "/uploads/photos/0123456789abcdef0123456789abcdef.jpg?exp=1900000000&sig=abc";
const hanako = publicProfile({ id: "11111111-1111-4111-8111-111111111111", name: "花子", photoLink: THUMB });

const quote = (cost: number, reason: "recentView" | null = null) => ({
  available: true,
  cost,
  free: cost === 0,
  freeUntil: reason ? new Date(Date.now() + 3_600_000) : null,
  reason,
});

function handlers(cost: number, extra: Handlers = {}): Handlers {
  let paid = false;
  return {
    "members.photoPrice": () => (paid ? quote(0, "recentView") : quote(cost)),
    "members.viewPhoto": () => {
      paid = true;
      return { url: FULL, expiresAt: new Date(Date.now() + 300_000), charged: cost > 0, remainingPoints: 80 };
    },
    ...extra,
  };
}

const deducted: number[] = [];
const onDeducted = (e: Event) => deducted.push((e as CustomEvent<PointsDeductedDetail>).detail.remainingPoints);
window.addEventListener(POINTS_DEDUCTED_EVENT, onDeducted);
afterEach(() => {
  deducted.length = 0;
});

function renderDetail(h: Handlers) {
  return renderWithProviders(
    <>
      <Notifications />
      <ProfileDetailModal profile={hanako} onClose={() => {}} />
    </>,
    h,
  );
}

describe("enlarging a photo in the profile detail", () => {
  it("shows the thumbnail and quotes the price; no full-size image before the charge", async () => {
    const { calls } = renderDetail(handlers(20));
    const dialog = await screen.findByRole("dialog", { name: "花子さんのプロフィール" });
    expect(dialog.querySelector(`img[src="${THUMB}"]`)).not.toBeNull();
    expect(await screen.findByRole("button", { name: "写真を拡大（20pt）" })).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain("/uploads/photos/");
    expect(calls.some((c) => c.path === "members.viewPhoto")).toBe(false);
  });

  it("confirm → viewPhoto → the full-size image in its own dialog; the balance follows; Esc returns focus; then 無料", async () => {
    const { calls } = renderDetail(handlers(20));
    const button = await screen.findByRole("button", { name: "写真を拡大（20pt）" });
    await userEvent.click(button);
    expect(await screen.findByText("写真の拡大には20ptが必要です。続けますか？")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "members.viewPhoto")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    const photo = await screen.findByRole("dialog", { name: "花子さんの写真" });
    expect(await screen.findByAltText("花子さんの写真（拡大）")).toHaveAttribute("src", FULL);
    expect(photo).toBeInTheDocument();
    expect(deducted).toEqual([80]);
    expect(calls.filter((c) => c.path === "members.viewPhoto").map((c) => c.input)).toEqual([{ id: hanako.id }]);

    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "花子さんの写真" })).not.toBeInTheDocument());
    const again = await screen.findByRole("button", { name: "写真を拡大（無料）" });
    await waitFor(() => expect(again).toHaveFocus());
  });

  it("a free re-view is not confirmed: the photo opens at once", async () => {
    renderDetail({ ...handlers(0), "members.photoPrice": () => quote(0, "recentView") });
    await userEvent.click(await screen.findByRole("button", { name: "写真を拡大（無料）" }));
    expect(await screen.findByRole("dialog", { name: "花子さんの写真" })).toBeInTheDocument();
    expect(screen.queryByText(/ptが必要です。続けますか？/)).not.toBeInTheDocument();
  });

  it("not enough points: says so, opens nothing, and the balance is untouched", async () => {
    renderDetail(
      handlers(20, {
        "members.viewPhoto": () => {
          throw new TRPCClientError("ポイントが不足しています。", {
            result: { error: { code: -32000, message: "ポイントが不足しています。", data: { httpStatus: 402 } } },
          } as never);
        },
      }),
    );
    await userEvent.click(await screen.findByRole("button", { name: "写真を拡大（20pt）" }));
    await userEvent.click(await screen.findByRole("button", { name: "続ける" }));
    expect(await screen.findByText("あなたのポイント数が足りません。")).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "花子さんの写真" })).not.toBeInTheDocument();
    expect(deducted).toEqual([]);
  });

  it("a member without a photo that can be enlarged: no button, no quote asked", async () => {
    const { calls } = renderWithProviders(
      <ProfileDetailModal profile={{ ...hanako, photoLink: null }} onClose={() => {}} />,
      {},
    );
    await screen.findByRole("dialog", { name: "花子さんのプロフィール" });
    expect(screen.queryByRole("button", { name: /写真を拡大/ })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === "members.photoPrice")).toBe(false);
  });
});
