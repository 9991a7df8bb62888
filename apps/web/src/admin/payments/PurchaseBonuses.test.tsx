import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { type Handlers, renderWithProviders } from "../../test/render";
import { PurchaseBonuses } from "./PurchaseBonuses";

/* The administrators' 購入ボーナス screen (decision 0047): the rules, the packs' preview, the campaigns. */

type Data = RouterOutputs["adminPayments"]["bonusRules"];

const NOW = new Date("2026-12-01T12:00:00+09:00");

const data: Data = {
  now: NOW,
  firstPurchase: { ratePercent: null, fixedPoints: 300, startsAt: new Date("2026-11-01T00:00:00+09:00") },
  tiers: [{ minAmount: 5000, ratePercent: 10, fixedPoints: null, startsAt: new Date("2026-11-01T00:00:00+09:00") }],
  campaigns: [
    {
      id: "c1",
      name: "年末キャンペーン",
      paymentMethod: "smart_pit",
      ratePercent: null,
      fixedPoints: 500,
      startsAt: new Date("2026-11-30T00:00:00+09:00"),
      endsAt: new Date("2026-12-31T00:00:00+09:00"),
      state: "running",
      granted: 12,
    },
  ],
  methods: [
    { method: "bank_transfer", usable: true },
    { method: "smart_pit", usable: true },
  ],
  packs: [1000, 3000, 5000, 10000, 30000, 50000],
  exchange: { yenAmount: 1000, pointAmount: 500 },
  minimumPurchase: 1000,
  maximumPurchase: 30000,
};

function handlers(extra: Handlers = {}): Handlers {
  return { "adminPayments.bonusRules": () => data, ...extra };
}

/** The preview's row of a pack: its cells' text. */
function previewRow(pack: string) {
  const rows = within(screen.getByTestId("bonus-preview")).getAllByTestId("bonus-preview-row");
  const row = rows.find((r) => r.textContent?.startsWith(pack));
  if (!row) throw new Error(`no preview row for ${pack}`);
  return row;
}

describe("PurchaseBonuses (admin)", { timeout: 20_000 }, () => {
  it("previews each pack inside the limits with the rule the server credits, following the draft and the method", async () => {
    renderWithProviders(<PurchaseBonuses />, handlers());
    await screen.findByTestId("bonus-preview");
    const rows = within(screen.getByTestId("bonus-preview")).getAllByTestId("bonus-preview-row");
    // 50,000円 is above the maximum purchase: not a pack members see.
    expect(rows.map((r) => r.querySelector("td")?.textContent)).toEqual([
      "1,000円",
      "3,000円",
      "5,000円",
      "10,000円",
      "30,000円",
    ]);
    // Bank transfer first (no campaign for it): first purchase +300, from 5,000円 10 %.
    expect(previewRow("1,000円")).toHaveTextContent("+300pt ボーナス");
    expect(previewRow("5,000円")).toHaveTextContent("+550pt ボーナス");
    expect(previewRow("5,000円")).toHaveTextContent(
      "2,500pt+550pt ボーナス初回購入ボーナス 300pt・金額別ボーナス（5,000円以上） 250pt3,050pt",
    );
    // SmartPit: the running campaign adds 500pt.
    await userEvent.click(screen.getByRole("combobox", { name: "支払方法" }));
    await userEvent.click(
      within(await screen.findByRole("listbox", { name: "支払方法", hidden: true })).getByRole("option", {
        name: "スマートピット（コンビニ払い）",
        hidden: true,
      }),
    );
    expect(previewRow("5,000円")).toHaveTextContent("+1,050pt ボーナス");
    expect(previewRow("5,000円")).toHaveTextContent("年末キャンペーン 500pt");
    // Not a first purchase: the first-purchase bonus goes.
    await userEvent.click(screen.getByRole("checkbox", { name: "初回購入の会員として表示" }));
    expect(previewRow("5,000円")).toHaveTextContent("+750pt ボーナス");
    // The draft: the tier raised to 20 % shows at once, before saving.
    const rate = screen.getByRole("textbox", { name: "1段階目の付与率（%）" });
    await userEvent.clear(rate);
    await userEvent.type(rate, "20");
    expect(previewRow("5,000円")).toHaveTextContent("+1,000pt ボーナス");
    expect(previewRow("3,000円")).toHaveTextContent("+500pt ボーナス");
  });

  it("saves the rules as the shared schema takes them; a duplicate tier is refused before sending", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <PurchaseBonuses />
      </>,
      handlers({ "adminPayments.saveBonusRules": () => data }),
    );
    await screen.findByTestId("bonus-preview");
    await userEvent.click(screen.getByRole("button", { name: "段階を追加" }));
    await userEvent.type(screen.getByRole("spinbutton", { name: "2段階目の対象金額（円以上）" }), "5000");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.bonusTiersDuplicate)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.saveBonusRules")).toEqual([]);
    const amount = screen.getByRole("spinbutton", { name: "2段階目の対象金額（円以上）" });
    await userEvent.clear(amount);
    await userEvent.type(amount, "10000");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText("ボーナス設定を保存しました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.saveBonusRules").map((c) => c.input)).toEqual([
      {
        firstPurchase: { ratePercent: null, fixedPoints: 300 },
        tiers: [
          { minAmount: 5000, ratePercent: 10, fixedPoints: null },
          { minAmount: 10000, ratePercent: 10, fixedPoints: null },
        ],
      },
    ]);
  });

  it("lists the campaigns; registering one the server refuses shows its Japanese message", async () => {
    const { calls } = renderWithProviders(
      <PurchaseBonuses />,
      handlers({
        "adminPayments.createCampaign": () => {
          throw new TRPCClientError(MSG.campaignOverlaps);
        },
      }),
    );
    const row = await screen.findByTestId("campaign-row");
    expect(row).toHaveTextContent("年末キャンペーン");
    expect(row).toHaveTextContent("スマートピット（コンビニ払い）");
    expect(row).toHaveTextContent("実施中");
    expect(within(row).getByRole("button", { name: "今すぐ終了（年末キャンペーン）" })).toBeInTheDocument();
    await userEvent.type(screen.getByRole("textbox", { name: "キャンペーン名" }), "重なるキャンペーン");
    await userEvent.type(screen.getByLabelText("開始日時"), "2026-12-10T10:00");
    await userEvent.type(screen.getByLabelText(/^終了日時/), "2026-12-20T10:00");
    await userEvent.click(screen.getByRole("button", { name: "キャンペーンを登録する" }));
    expect(await screen.findByText(MSG.campaignOverlaps)).toBeInTheDocument();
    const sent = calls.find((c) => c.path === "adminPayments.createCampaign")?.input as Record<string, unknown>;
    expect(sent).toMatchObject({
      name: "重なるキャンペーン",
      paymentMethod: null,
      ratePercent: 10,
      fixedPoints: null,
      // Japan's time, as typed.
      startsAt: new Date("2026-12-10T10:00:00+09:00"),
      endsAt: new Date("2026-12-20T10:00:00+09:00"),
    });
  });

  it("refuses an end before the start in the form, sending nothing", async () => {
    const { calls } = renderWithProviders(<PurchaseBonuses />, handlers());
    await screen.findByTestId("campaign-row");
    await userEvent.type(screen.getByRole("textbox", { name: "キャンペーン名" }), "逆転");
    await userEvent.type(screen.getByLabelText("開始日時"), "2026-12-20T10:00");
    await userEvent.type(screen.getByLabelText(/^終了日時/), "2026-12-10T10:00");
    await userEvent.click(screen.getByRole("button", { name: "キャンペーンを登録する" }));
    expect(await screen.findByText(MSG.campaignEndBeforeStart)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.createCampaign")).toEqual([]);
  });
});
