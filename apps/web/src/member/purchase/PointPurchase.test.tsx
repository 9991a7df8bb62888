import { MSG, purchaseAboveMaximum, purchaseBelowMinimum, purchaseConfirmation } from "@enmusubi/shared";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it, vi } from "vitest";
import { CANCELLATION_RULES, CREDIT_TIMING } from "../../features/payments/terms";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { RouterOutputs } from "../../lib/api-types";
import { type Handlers, renderWithProviders } from "../../test/render";
import { goToCheckout, PointPurchase } from "./PointPurchase";

const settings: RouterOutputs["purchase"]["settings"] = {
  exchange: { yenAmount: 1000, pointAmount: 500, isActive: true },
  minimumPurchase: 1000,
  maximumPurchase: 100000,
  methods: { smartPit: true, bankTransfer: false, card: false },
  bank: null,
};

const pending: RouterOutputs["purchase"]["create"] = {
  id: "t1",
  transactionId: "PT-20261123-0001",
  amount: 3000,
  points: 1500,
  bonusPoints: 0,
  paymentMethod: "smart_pit",
  status: "pending",
  createdAt: new Date("2026-11-23T10:00:00+09:00"),
  confirmedAt: null,
  cancelledAt: null,
  confirmedVia: null,
  confirmedBy: null,
  reinstatedAt: null,
  smartPit: {
    paymentCode: "123456789012",
    barcodeValue: "91234567890123",
    expiresAt: new Date("2026-11-30T23:59:00+09:00"),
  },
  bank: null,
  card: null,
  refundedAt: null,
};

function handlers(extra: Handlers = {}): Handlers {
  return {
    "purchase.settings": () => settings,
    "purchase.history": () => ({ transactions: [], pagination: { currentPage: 1, totalPages: 1, total: 0 } }),
    "purchase.bonusQuote": (input) => {
      const { amount, paymentMethod } = input as { amount: number; paymentMethod: "smart_pit" };
      const points = Math.floor((amount * 500) / 1000);
      // No bonus rule here (PurchaseBonus.test.tsx shows the bonuses).
      return {
        amount,
        paymentMethod,
        points,
        bonusPoints: 0,
        totalPoints: points,
        items: [],
        firstPurchase: true,
        bonusValidityDays: 180,
      };
    },
    "purchase.create": () => pending,
    ...extra,
  };
}

const amountInput = () => screen.getByLabelText(/購入金額/);

// userEvent typing on a loaded 2-core machine can pass the 5 s default.
describe("PointPurchase", { timeout: 20_000 }, () => {
  it("draws the form once, with the packs' bonus lines, and lays the history out with it (nothing below moves)", async () => {
    let answerQuotes = () => {};
    const quotesMayAnswer = new Promise<void>((resolve) => {
      answerQuotes = resolve;
    });
    const base = handlers();
    const { calls } = renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.bonusQuote": async (input) => {
          await quotesMayAnswer;
          const quote = await base["purchase.bonusQuote"]?.(input);
          if (!quote) throw new Error("no quote");
          return { ...quote, bonusPoints: 300, totalPoints: quote.points + 300 };
        },
      }),
    );
    // The settings and the history have answered; the packs' bonuses have not.
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain("purchase.bonusQuote"));
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain("purchase.history"));
    expect(screen.queryByRole("button", { name: "確認画面へ進む" })).not.toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "購入履歴" })).not.toBeInTheDocument();
    answerQuotes();
    await screen.findByRole("button", { name: "確認画面へ進む" });
    expect(screen.getAllByText("+300pt ボーナス").length).toBeGreaterThan(0);
    expect(screen.getByRole("heading", { name: "購入履歴" })).toBeVisible();
  });

  it("offers only the active methods and shows the floored points as the amount is typed", async () => {
    renderWithProviders(<PointPurchase />, handlers());
    expect(await screen.findByTestId("purchase-rate")).toHaveTextContent(
      "1,000円（税込）で500pt（1ポイントあたり2円）",
    );
    expect(screen.getByRole("radio", { name: "スマートピット（コンビニ払い）" })).toBeChecked();
    expect(screen.queryByRole("radio", { name: "銀行振込" })).not.toBeInTheDocument();
    await userEvent.type(amountInput(), "1999");
    expect(screen.getByTestId("purchase-computed-points")).toHaveTextContent("999pt");
    expect(await screen.findByText("購入履歴はありません")).toBeInTheDocument();
  });

  it("refuses an amount outside the settings' limits with the catalogue's messages, never sending it to the server", async () => {
    const { calls } = renderWithProviders(<PointPurchase />, handlers());
    await screen.findByTestId("purchase-rate");
    await userEvent.type(amountInput(), "500");
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    expect(await screen.findByText(purchaseBelowMinimum(1000))).toBeInTheDocument();
    await userEvent.clear(amountInput());
    await userEvent.type(amountInput(), "200000");
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    expect(await screen.findByText(purchaseAboveMaximum(100000))).toBeInTheDocument();
    await userEvent.clear(amountInput());
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    expect(await screen.findByText(MSG.amountInvalid)).toBeInTheDocument();
    // Only the packs were quoted (for their bonus), never the refused amounts; nothing was ordered.
    const asked = calls
      .filter((c) => c.path === "purchase.bonusQuote")
      .map((c) => (c.input as { amount: number }).amount);
    expect(asked.filter((a) => [500, 200000].includes(a))).toEqual([]);
    expect(asked.length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.path === "purchase.create")).toEqual([]);
  });

  it("confirms with what 特商法 requires, then shows the payment code and its barcode", async () => {
    const { calls } = renderWithProviders(<PointPurchase />, handlers());
    await screen.findByTestId("purchase-rate");
    await userEvent.click(screen.getByRole("button", { name: "3,000円" }));
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));

    const table = await screen.findByTestId("purchase-confirmation");
    const confirm = within(table);
    expect(confirm.getByText("1,500pt")).toBeInTheDocument();
    expect(confirm.getByText("3,000円")).toBeInTheDocument();
    expect(confirm.getByText("お支払い金額（税込）")).toBeInTheDocument();
    expect(confirm.getByText("スマートピット（コンビニ払い）")).toBeInTheDocument();
    expect(confirm.getByText(CREDIT_TIMING)).toBeInTheDocument();
    expect(
      confirm.getByText("ポイントの有効期限は購入日から3年間です。期限を過ぎたポイントは失効します。"),
    ).toBeInTheDocument();
    for (const rule of CANCELLATION_RULES) expect(confirm.getByText(rule)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "特定商取引法に基づく表記" })).toHaveAttribute(
      "href",
      "/legal/transaction-law",
    );
    expect(screen.getByText(purchaseConfirmation(1500, 3000))).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "購入を確定する" }));
    expect(await screen.findByText("お申込みを受け付けました")).toBeInTheDocument();
    expect(screen.getByTestId("purchase-payment-code")).toHaveTextContent("123456789012");
    const barcode = screen.getByRole("img", { name: /支払番号 123456789012 のバーコード：91234567890123/ });
    expect(barcode.querySelectorAll("rect[data-bar]").length).toBeGreaterThan(20);
    expect(calls.find((c) => c.path === "purchase.create")?.input).toEqual({
      amount: 3000,
      paymentMethod: "smart_pit",
    });
  });

  it("offers bank transfer when it is active and answers with the account and the transfer name", async () => {
    const bank = {
      bankName: "縁結び銀行",
      bankBranchName: "本店営業部",
      bankAccountType: "普通",
      bankAccountNumber: "1234567",
      bankAccountName: "エンムスビ（カ",
    };
    const { calls } = renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.settings": () => ({
          ...settings,
          methods: { smartPit: true, bankTransfer: true, card: false },
          bank,
        }),
        "purchase.create": () => ({
          ...pending,
          paymentMethod: "bank_transfer" as const,
          smartPit: null,
          bank: { ...bank, transferName: "PT-20261123-0001" },
        }),
      }),
    );
    await screen.findByTestId("purchase-rate");
    await userEvent.click(screen.getByRole("radio", { name: "銀行振込" }));
    await userEvent.type(amountInput(), "3000");
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    expect(within(await screen.findByTestId("purchase-confirmation")).getByText("銀行振込")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "購入を確定する" }));
    expect(await screen.findByText("縁結び銀行")).toBeInTheDocument();
    expect(screen.getByText("1234567")).toBeInTheDocument();
    expect(screen.getByTestId("purchase-transfer-name")).toHaveTextContent("PT-20261123-0001");
    expect(screen.queryByRole("img")).not.toBeInTheDocument();
    expect(calls.find((c) => c.path === "purchase.create")?.input).toEqual({
      amount: 3000,
      paymentMethod: "bank_transfer",
    });
  });

  it("shows the server's message when the order is refused", async () => {
    renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.create": () => {
          throw new TRPCClientError(MSG.exchangeInactive, {
            result: { error: { code: -32000, message: MSG.exchangeInactive, data: { httpStatus: 409 } } },
          } as never);
        },
      }),
    );
    await screen.findByTestId("purchase-rate");
    await userEvent.type(amountInput(), "1000");
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    await userEvent.click(await screen.findByRole("button", { name: "購入を確定する" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(MSG.exchangeInactive);
  });

  it("says so when the settings cannot be read, and retries", async () => {
    let fail = true;
    renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.settings": () => {
          if (fail) throw new Error("down");
          return settings;
        },
      }),
    );
    expect(await screen.findAllByText(MSG.purchaseFetchFailed)).not.toHaveLength(0);
    fail = false;
    await userEvent.click(screen.getAllByRole("button", { name: "再試行" })[0] as HTMLElement);
    expect(await screen.findByTestId("purchase-rate")).toBeInTheDocument();
  });

  it("takes no order while purchases are switched off", async () => {
    renderWithProviders(
      <PointPurchase />,
      handlers({ "purchase.settings": () => ({ ...settings, exchange: { ...settings.exchange, isActive: false } }) }),
    );
    expect(await screen.findByText(MSG.exchangeInactive)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "確認画面へ進む" })).not.toBeInTheDocument();
  });

  it("with no method configured, says purchases are not available now, where a method is configured, and where to ask", async () => {
    renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.settings": () => ({ ...settings, methods: { smartPit: false, bankTransfer: false, card: false } }),
      }),
    );
    const notice = await screen.findByTestId("purchase-unavailable");
    expect(notice).toHaveTextContent(PAYMENTS_TEXT.noPaymentMethod);
    // The operator's screen by its menu name, and a way on for the member.
    expect(notice).toHaveTextContent("管理画面の「決済設定」");
    expect(within(notice).getByRole("link", { name: "お問い合わせ" })).toHaveAttribute("href", "/user/inquiry");
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/購入金額/)).not.toBeInTheDocument();
  });

  it("offers the card first (recommended, credited at once) and sends the member to the processor's page", async () => {
    const assign = vi.spyOn(goToCheckout, "assign").mockImplementation(() => {});
    const checkoutUrl = "https://pay.example-card.jp/checkout?order_id=TX1&signature=abc";
    const { calls } = renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.settings": () => ({ ...settings, methods: { smartPit: true, bankTransfer: false, card: true } }),
        "purchase.create": () => ({
          ...pending,
          paymentMethod: "card" as const,
          smartPit: null,
          card: { checkoutUrl },
        }),
      }),
    );
    const card = await screen.findByRole("radio", { name: /クレジットカード/ });
    expect(card).toBeChecked();
    expect(screen.getByText(PAYMENTS_TEXT.cardRecommended)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "3,000円" }));
    await userEvent.click(screen.getByRole("button", { name: "確認画面へ進む" }));
    const confirmation = await screen.findByTestId("purchase-confirmation");
    expect(confirmation).toHaveTextContent(PAYMENTS_TEXT.cardCreditTiming);
    await userEvent.click(screen.getByRole("button", { name: PAYMENTS_TEXT.cardOrder }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(checkoutUrl));
    expect(calls.find((c) => c.path === "purchase.create")?.input).toEqual({ amount: 3000, paymentMethod: "card" });
    expect(screen.getByText(PAYMENTS_TEXT.cardRedirecting)).toBeInTheDocument();
    assign.mockRestore();
  });

  it("back from the processor, shows the card's result with its bonus and sets the header's balance without a reload", async () => {
    let asked = 0;
    const answer = (status: "pending" | "paid") => ({
      transactionId: "TX1",
      status,
      amount: 3000,
      points: 1500,
      bonusPoints: status === "paid" ? 300 : 0,
      confirmedAt: status === "paid" ? new Date() : null,
      balance: status === "paid" ? 1900 : 100,
    });
    const { queryClient } = renderWithProviders(
      <PointPurchase />,
      handlers({
        "purchase.cardResult": () => {
          asked += 1;
          return answer(asked === 1 ? "pending" : "paid");
        },
      }),
      { route: "/user/point-purchase?order=TX1&result=success" },
    );
    expect(await screen.findByText(PAYMENTS_TEXT.cardResultWaiting)).toBeInTheDocument();
    const meKey = [["profile", "me"], { type: "query" }];
    queryClient.setQueryData(meKey, { points: 100 });
    expect(await screen.findByTestId("card-result-paid", {}, { timeout: 5000 })).toHaveTextContent(
      PAYMENTS_TEXT.cardResultPaid,
    );
    expect(screen.getByTestId("card-result-bonus")).toHaveTextContent("+300pt");
    expect(screen.getByTestId("card-result-balance")).toHaveTextContent("1,900pt");
    await vi.waitFor(() => expect(queryClient.getQueryData(meKey)).toEqual({ points: 1900 }));
    expect(screen.queryByRole("button", { name: "確認画面へ進む" })).not.toBeInTheDocument();
  });
});
