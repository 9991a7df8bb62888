import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { pointCost, profileDetail } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { Footprints } from "./Footprints";

/** Decision 0026: the confirmation quotes the server's price for this view, and is skipped when it is free. */
const hanako = profileDetail({ id: "11111111-1111-4111-8111-111111111111", name: "花子", gender: "female" });

const handlers = (quote: { cost: number; reason: "recentView" | null }): Handlers => ({
  "scheduled.list": () => [],
  "reference.pointCosts.list": () => [pointCost("profile_view", 15)],
  "members.footprints": () => [{ viewer: hanako, viewedAt: new Date("2026-11-20T03:00:00Z") }],
  "members.viewPrice": () => ({
    cost: quote.cost,
    free: quote.cost === 0,
    freeUntil: quote.reason ? new Date(Date.now() + 3_600_000) : null,
    reason: quote.reason,
  }),
  "members.viewProfile": () => ({ profile: hanako, charged: quote.cost > 0, remainingPoints: 85 }),
});

describe("the profile-view confirmation", () => {
  it("a re-view within 24 hours is not quoted a price: no confirmation, the profile opens", async () => {
    const { calls } = renderWithProviders(<Footprints />, handlers({ cost: 0, reason: "recentView" }));
    await userEvent.click(await screen.findByRole("button", { name: "花子さんのプロフィールを見る" }));
    expect(await screen.findByRole("dialog", { name: "花子さんのプロフィール" })).toBeInTheDocument();
    expect(screen.queryByText(/ptが必要です。続けますか？/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === "members.viewPrice").map((c) => c.input)).toEqual([{ id: hanako.id }]);
  });

  it("a paid view quotes the server's price for it, then opens once confirmed", async () => {
    const { calls } = renderWithProviders(<Footprints />, handlers({ cost: 20, reason: null }));
    await userEvent.click(await screen.findByRole("button", { name: "花子さんのプロフィールを見る" }));
    expect(await screen.findByText("プロフィールの閲覧には20ptが必要です。続けますか？")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "members.viewProfile")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    expect(await screen.findByRole("dialog", { name: "花子さんのプロフィール" })).toBeInTheDocument();
  });
});
