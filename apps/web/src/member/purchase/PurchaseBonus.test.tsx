import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { BONUS_TEXT } from "../../features/payments/bonus-text";
import type { RouterOutputs } from "../../lib/api-types";
import { formatDateTime } from "../../lib/format";
import { type Handlers, renderWithProviders } from "../../test/render";
import { PointPurchase } from "./PointPurchase";

/* The purchase screen's bonuses (decision 0047): each pack's 「+NNNpt ボーナス」, the campaign's end, the confirmation. */

type Quote = RouterOutputs["purchase"]["bonusQuote"];

const settings: RouterOutputs["purchase"]["settings"] = {
  exchange: { yenAmount: 1000, pointAmount: 500, isActive: true },
  minimumPurchase: 1000,
  maximumPurchase: 100000,
  methods: { smartPit: true, bankTransfer: true, card: false },
  bank: null,
};

const CAMPAIGN_END = new Date("2026-12-31T23:59:00+09:00");

/**
 * The server's quote as these tests define the rules: first purchase +300pt, 10 % from 5,000円, and
 * a 500pt campaign for convenience-store payments only, until CAMPAIGN_END.
 */
function quote({ amount, paymentMethod }: { amount: number; paymentMethod: "smart_pit" | "bank_transfer" }): Quote {
  const points = Math.floor((amount * 500) / 1000);
  const items: Quote["items"] = [{ kind: "first_purchase", label: "初回購入ボーナス", points: 300, endsAt: null }];
  if (amount >= 5000)
    items.push({ kind: "tier", label: "金額別ボーナス（5,000円以上）", points: Math.floor(points / 10), endsAt: null });
  if (paymentMethod === "smart_pit")
    items.push({ kind: "campaign", label: "年末キャンペーン", points: 500, endsAt: CAMPAIGN_END });
  const bonusPoints = items.reduce((s, i) => s + i.points, 0);
  return {
    amount,
    paymentMethod,
    points,
    bonusPoints,
    totalPoints: points + bonusPoints,
    items,
    firstPurchase: true,
    bonusValidityDays: 180,
  };
}

function handlers(extra: Handlers = {}): Handlers {
  return {
    "purchase.settings": () => settings,
    "purchase.history": () => ({ transactions: [], pagination: { currentPage: 1, totalPages: 1, total: 0 } }),
    "purchase.bonusQuote": (input) => quote(input as Parameters<typeof quote>[0]),
    ...extra,
  };
}

/** The bonus line under the pack of `yen`. */
async function packBonus(label: string) {
  const button = await screen.findByRole("button", { name: label });
  const pack = button.closest("[data-testid='purchase-pack']") as HTMLElement;
  return pack;
}

describe("purchase bonuses on the purchase screen", { timeout: 20_000 }, () => {
  it("shows each pack's 「+NNNpt ボーナス」 for the chosen method and the campaign's end", async () => {
    renderWithProviders(<PointPurchase />, handlers());
    await screen.findByTestId("purchase-rate");
    // SmartPit (chosen first): 1,000円 → +300 first +500 campaign; 5,000円 → +300 +250 +500.
    expect(await within(await packBonus("1,000円")).findByText("+800pt ボーナス")).toBeInTheDocument();
    expect(await within(await packBonus("5,000円")).findByText("+1,050pt ボーナス")).toBeInTheDocument();
    expect(await within(await packBonus("50,000円")).findByText("+3,300pt ボーナス")).toBeInTheDocument();
    // The button is described by its bonus (read out with it).
    expect(screen.getByRole("button", { name: "5,000円" })).toHaveAccessibleDescription("+1,050pt ボーナス");
    const banner = await screen.findByTestId("campaign-banner");
    expect(banner).toHaveTextContent("年末キャンペーン 実施中");
    expect(banner).toHaveTextContent(`${formatDateTime(CAMPAIGN_END)}までのお申込みが対象です。`);

    // Bank transfer has no campaign: the packs' bonuses drop it, and the banner goes.
    await userEvent.click(screen.getByRole("radio", { name: "銀行振込" }));
    expect(await within(await packBonus("5,000円")).findByText("+550pt ボーナス")).toBeInTheDocument();
    expect(screen.queryByTestId("campaign-banner")).not.toBeInTheDocument();
  });

  it("the typed amount shows its bonus; the confirmation lists each bonus, the campaign's end, the total and the validity", async () => {
    const { calls } = renderWithProviders(<PointPurchase />, handlers());
    await screen.findByTestId("purchase-rate");
    await userEvent.type(screen.getByLabelText(/購入金額/), "6000");
    expect(
      await within(screen.getByTestId("purchase-computed-points")).findByText("+1,100pt ボーナス"),
    ).toBeInTheDocument();
    expect(screen.getByText(BONUS_TEXT.firstPurchaseNote)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    const table = within(await screen.findByTestId("purchase-confirmation"));
    expect(table.getByText("3,000pt")).toBeInTheDocument();
    const bonus = within(table.getByTestId("confirm-bonus"));
    expect(bonus.getByText("初回購入ボーナス：+300pt")).toBeInTheDocument();
    expect(bonus.getByText("金額別ボーナス（5,000円以上）：+300pt")).toBeInTheDocument();
    expect(
      bonus.getByText(`年末キャンペーン：+500pt（${formatDateTime(CAMPAIGN_END)}までのお申込みが対象）`),
    ).toBeInTheDocument();
    expect(table.getByText("4,100pt")).toBeInTheDocument();
    expect(
      table.getByText("ボーナスポイントは無料ポイントとして付与し、有効期限は付与日から180日間です。"),
    ).toBeInTheDocument();
    // The confirmation's figures are the server's quote for this amount and method.
    expect(calls.filter((c) => c.path === "purchase.bonusQuote").map((c) => c.input)).toContainEqual({
      amount: 6000,
      paymentMethod: "smart_pit",
    });
  });

  it("shows no bonus line when the server quotes none", async () => {
    renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.bonusQuote": (input) => ({
          ...quote(input as Parameters<typeof quote>[0]),
          bonusPoints: 0,
          items: [],
          totalPoints: 0,
        }),
      }),
    );
    await screen.findByRole("button", { name: "5,000円" });
    expect(await screen.findByRole("button", { name: "10,000円" })).not.toHaveAccessibleDescription();
    expect(screen.queryByText(/ボーナス$/)).not.toBeInTheDocument();
    expect(screen.queryByTestId("campaign-banner")).not.toBeInTheDocument();
  });

  it("the history shows the bonus credited with a paid purchase", async () => {
    const paid: RouterOutputs["purchase"]["history"]["transactions"][number] = {
      id: "t9",
      transactionId: "TX20261201ABCDEFGH",
      amount: 5000,
      points: 2500,
      bonusPoints: 1050,
      paymentMethod: "smart_pit",
      status: "paid",
      createdAt: new Date("2026-12-01T10:00:00+09:00"),
      confirmedAt: new Date("2026-12-01T12:00:00+09:00"),
      cancelledAt: null,
      confirmedVia: "smartpit",
      confirmedBy: null,
      reinstatedAt: null,
      refundedAt: null,
      card: null,
      smartPit: null,
      bank: null,
    };
    renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.history": () => ({ transactions: [paid], pagination: { currentPage: 1, totalPages: 1, total: 1 } }),
      }),
    );
    const row = await screen.findByTestId("purchase-history-row");
    expect(within(row).getByText("+1,050pt ボーナス")).toBeInTheDocument();
  });
});
