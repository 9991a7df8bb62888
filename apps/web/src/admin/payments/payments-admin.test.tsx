import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { type Handlers, renderWithProviders } from "../../test/render";
import { PaymentSettings } from "./PaymentSettings";
import { PaymentTransactions } from "./PaymentTransactions";

type Transaction = RouterOutputs["adminPayments"]["list"]["transactions"][number];

const settings: RouterOutputs["adminPayments"]["getSettings"] = {
  exchange: { yenAmount: 1000, pointAmount: 500, isActive: true, displayRate: "0.5000" },
  smartPit: {
    smartPitId: "SP001",
    apiKeySet: true,
    apiKeyMasked: "••••••••abcd",
    isActive: true,
    usable: true,
    missing: [],
  },
  bank: {
    bankName: "",
    bankBranchName: "",
    bankAccountType: "普通",
    bankAccountNumber: "",
    bankAccountName: "",
    isActive: false,
    usable: false,
    missing: [],
  },
  card: {
    merchantId: "",
    secretSet: false,
    secretMasked: "",
    paymentUrl: "",
    isActive: true,
    ageVerification: false,
    usable: false,
    missing: ["加盟店ID", "シークレットキー", "決済ページURL"],
  },
  general: { minimumPurchase: 1000, maximumPurchase: 100000, bankTransferBalance: 0 },
  updatedAt: new Date(),
};

/** An update answers the settings as saved. */
const saved = () => settings;

// userEvent typing on a loaded 2-core machine can pass the 5 s default.
describe("PaymentSettings", { timeout: 20_000 }, () => {
  it("shows the rate as points ÷ yen to 4 decimals and saves the exchange tab alone", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <PaymentSettings />
      </>,
      { "adminPayments.getSettings": () => settings, "adminPayments.updateExchange": saved },
    );
    expect(await screen.findByTestId("exchange-rate-display")).toHaveTextContent("0.5000");
    const points = screen.getByLabelText("付与ポイント");
    await userEvent.clear(points);
    await userEvent.type(points, "300");
    expect(screen.getByTestId("exchange-rate-display")).toHaveTextContent("0.3000");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText("設定を保存しました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("adminPayments.update"))).toEqual([
      { path: "adminPayments.updateExchange", input: { yenAmount: 1000, pointAmount: 300, isActive: true } },
    ]);
  });

  it("refuses a rate below 1 with the spec's minimum, sending nothing", async () => {
    const { calls } = renderWithProviders(<PaymentSettings />, {
      "adminPayments.getSettings": () => settings,
      "adminPayments.updateExchange": saved,
    });
    const yenField = await screen.findByLabelText("金額（円）");
    await userEvent.clear(yenField);
    await userEvent.type(yenField, "0");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.exchangeAmountInvalid)).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("adminPayments.update"))).toEqual([]);
  });

  it("checks the general tab's minimums (100, 1,000, 0) and their order, then saves it alone", async () => {
    const { calls } = renderWithProviders(<PaymentSettings />, {
      "adminPayments.getSettings": () => settings,
      "adminPayments.updateGeneral": saved,
    });
    await userEvent.click(await screen.findByRole("tab", { name: "一般" }));
    const min = await screen.findByLabelText("最低購入金額");
    const max = screen.getByLabelText("最高購入金額");
    await userEvent.clear(min);
    await userEvent.type(min, "50");
    await userEvent.clear(max);
    await userEvent.type(max, "999");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.minimumPurchaseInvalid)).toBeInTheDocument();
    expect(screen.getByText(MSG.maximumPurchaseInvalid)).toBeInTheDocument();

    await userEvent.clear(min);
    await userEvent.type(min, "5000");
    await userEvent.clear(max);
    await userEvent.type(max, "3000");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.purchaseLimitsOrder)).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("adminPayments.update"))).toEqual([]);

    await userEvent.clear(max);
    await userEvent.type(max, "50000");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    await screen.findByRole("button", { name: "保存する" });
    expect(calls.filter((c) => c.path.startsWith("adminPayments.update"))).toEqual([
      {
        path: "adminPayments.updateGeneral",
        input: { minimumPurchase: 5000, maximumPurchase: 50000, bankTransferBalance: 0 },
      },
    ]);
  });

  it("asks for the bank details before bank transfer is switched on; never shows the stored API key", async () => {
    const { calls } = renderWithProviders(<PaymentSettings />, {
      "adminPayments.getSettings": () => settings,
      "adminPayments.updateBank": saved,
    });
    await userEvent.click(await screen.findByRole("tab", { name: "銀行振込" }));
    await userEvent.click(await screen.findByRole("switch", { name: "銀行振込を有効にする" }));
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.bankDetailsRequired)).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("adminPayments.update"))).toEqual([]);

    await userEvent.click(screen.getByRole("tab", { name: "SmartPit" }));
    expect(await screen.findByText(/登録済み（••••••••abcd）/)).toBeInTheDocument();
    expect(screen.getByLabelText("APIキー")).toHaveValue("");
  });

  it("says the settings could not be read, with a retry", async () => {
    renderWithProviders(<PaymentSettings />, {
      "adminPayments.getSettings": () => {
        throw new Error("down");
      },
    });
    expect(await screen.findByText(MSG.settingsFetchFailed)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "再試行" })).toBeInTheDocument();
  });
});

const member = { id: "u1", userID: "buyer01", name: "購入 太郎", email: "buyer01@example.jp" };
const base = {
  amount: 3000,
  points: 1500,
  bonusPoints: 0,
  paymentMethod: "smart_pit" as const,
  createdAt: new Date("2026-11-23T10:00:00+09:00"),
  cancelledAt: null,
  confirmedVia: null,
  reinstatedAt: null,
  smartPit: null,
  bank: null,
  card: null,
  refundedAt: null,
  user: member,
};
const rows: Transaction[] = [
  { ...base, id: "a", transactionId: "PT-A", status: "pending", confirmedAt: null, confirmedBy: null },
  {
    ...base,
    id: "b",
    transactionId: "PT-B",
    status: "paid",
    confirmedAt: new Date("2026-11-23T12:00:00+09:00"),
    confirmedVia: "admin",
    confirmedBy: { userID: "admin", name: "管理 花子" },
  },
  { ...base, id: "c", transactionId: "PT-C", status: "cancelled", confirmedAt: null, confirmedBy: null },
];

function transactionHandlers(extra: Handlers = {}): Handlers {
  return {
    "adminPayments.list": () => ({
      transactions: rows,
      pagination: { currentPage: 1, totalPages: 1, total: 3 },
      totals: { count: 3, amount: 9000, points: 4500 },
    }),
    "adminPayments.sales": () => [
      { period: "2026-11-22", count: 1, amount: 1000, points: 500 },
      { period: "2026-11-23", count: 2, amount: 6000, points: 3000 },
    ],
    "adminPayments.confirm": ({ id }) => ({ ...(rows.find((r) => r.id === id) as Transaction), status: "paid" }),
    "adminPayments.cancel": ({ id }) => ({ ...(rows.find((r) => r.id === id) as Transaction), status: "cancelled" }),
    ...extra,
  };
}

const rowOf = (transactionId: string) => {
  const row = document.querySelector<HTMLElement>(`tr[data-transaction="${transactionId}"]`);
  if (!row) throw new Error(`no row ${transactionId}`);
  return within(row);
};

describe("PaymentTransactions", { timeout: 20_000 }, () => {
  it("offers confirm and cancel on pending rows only and names who confirmed a paid one; totals and the sales chart", async () => {
    renderWithProviders(<PaymentTransactions />, transactionHandlers());
    await screen.findByText("PT-A");
    expect(rowOf("PT-A").getByText("処理中")).toBeInTheDocument();
    expect(rowOf("PT-A").getByRole("button", { name: "入金確認（取引 PT-A）" })).toBeInTheDocument();
    expect(rowOf("PT-A").getByRole("button", { name: "キャンセル（取引 PT-A）" })).toBeInTheDocument();
    for (const id of ["PT-B", "PT-C"]) expect(rowOf(id).queryAllByRole("button")).toHaveLength(0);
    expect(rowOf("PT-B").getByTestId("confirmed-by")).toHaveTextContent("確認者：管理 花子");
    expect(screen.getByTestId("transaction-totals")).toHaveTextContent("3件");
    expect(screen.getByTestId("transaction-totals")).toHaveTextContent("9,000円");
    expect(screen.getByTestId("transaction-totals")).toHaveTextContent("4,500pt");
    const chart = await screen.findByTestId("sales-chart");
    expect(chart.querySelectorAll("[data-bar]")).toHaveLength(2);
    expect(within(screen.getByTestId("sales-table")).getByText("6,000円")).toBeInTheDocument();
  });

  it("confirms only after the administrator agrees, and shows the server's refusal", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <PaymentTransactions />
      </>,
      transactionHandlers({
        "adminPayments.confirm": () => {
          throw new TRPCClientError(MSG.transactionAlreadyConfirmed, {
            result: { error: { code: -32000, message: MSG.transactionAlreadyConfirmed, data: { httpStatus: 409 } } },
          } as never);
        },
      }),
    );
    await userEvent.click(await screen.findByRole("button", { name: "入金確認（取引 PT-A）" }));
    const dialog = await screen.findByRole("dialog", { name: "入金の確認" });
    await userEvent.click(within(dialog).getByRole("button", { name: "キャンセル" }));
    expect(calls.filter((c) => c.path === "adminPayments.confirm")).toEqual([]);

    await userEvent.click(screen.getByRole("button", { name: "入金確認（取引 PT-A）" }));
    await userEvent.click(await screen.findByRole("button", { name: "入金を確認する" }));
    expect(await screen.findByText(MSG.transactionAlreadyConfirmed)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.confirm").map((c) => c.input)).toEqual([{ id: "a" }]);
  });

  it("sends the chosen filters and starts again at page 1", async () => {
    const { calls } = renderWithProviders(
      <PaymentTransactions />,
      transactionHandlers({
        "adminPayments.list": () => ({
          transactions: rows,
          pagination: { currentPage: 1, totalPages: 3, total: 43 },
          totals: { count: 43, amount: 129000, points: 64500 },
        }),
      }),
    );
    const lists = () => calls.filter((c) => c.path === "adminPayments.list").map((c) => c.input);
    await userEvent.click(await screen.findByRole("button", { name: "2ページ" }));
    await waitFor(() => expect(lists().at(-1)).toEqual({ page: 2 }));
    await userEvent.click(screen.getByRole("combobox", { name: "ステータス" }));
    await userEvent.click(
      within(await screen.findByRole("listbox", { name: "ステータス", hidden: true })).getByRole("option", {
        name: "支払済",
        hidden: true,
      }),
    );
    await waitFor(() => expect(lists().at(-1)).toEqual({ page: 1, status: "paid" }));
  });

  it("says when the transactions cannot be read", async () => {
    renderWithProviders(
      <PaymentTransactions />,
      transactionHandlers({
        "adminPayments.list": () => {
          throw new Error("down");
        },
      }),
    );
    expect(await screen.findByText(MSG.transactionsFetchFailed)).toBeInTheDocument();
  });

  it("says why the server refused the filters (end before start)", async () => {
    renderWithProviders(
      <PaymentTransactions />,
      transactionHandlers({
        "adminPayments.list": () => {
          throw new TRPCClientError(MSG.dateRangeInvalid, {
            result: { error: { code: -32000, message: MSG.dateRangeInvalid, data: { httpStatus: 400 } } },
          } as never);
        },
      }),
    );
    expect(await screen.findByText(MSG.dateRangeInvalid)).toBeInTheDocument();
  });
});

describe("Decision 0018: what a method lacks, and money to settle", { timeout: 20_000 }, () => {
  it("the card tab refuses a page that is not an http(s) URL, then saves merchant id, secret, page and the age check", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <PaymentSettings />
      </>,
      { "adminPayments.getSettings": () => settings, "adminPayments.updateCard": saved },
    );
    await userEvent.click(await screen.findByRole("tab", { name: "クレジットカード" }));
    await userEvent.type(screen.getByLabelText("加盟店ID"), "M-000123");
    await userEvent.type(screen.getByLabelText("シークレットキー"), "card-secret-0001");
    await userEvent.type(screen.getByLabelText("決済ページURL"), "ftp://pay.example.jp");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.cardUrlInvalid)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.updateCard")).toEqual([]);
    await userEvent.clear(screen.getByLabelText("決済ページURL"));
    await userEvent.type(screen.getByLabelText("決済ページURL"), "https://pay.example.jp/checkout");
    await userEvent.click(screen.getByRole("switch", { name: /^初回のカード決済完了を年齢確認として扱う/ }));
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText("設定を保存しました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.updateCard").map((c) => c.input)).toEqual([
      {
        merchantId: "M-000123",
        secret: "card-secret-0001",
        paymentUrl: "https://pay.example.jp/checkout",
        isActive: true,
        ageVerification: true,
      },
    ]);
    // The secret is never shown again: the field is emptied after the save.
    expect(screen.getByLabelText("シークレットキー")).toHaveValue("");
  });

  it("the SmartPit tab says it is switched on but not offered, and what is missing", async () => {
    renderWithProviders(<PaymentSettings />, {
      "adminPayments.getSettings": () => ({
        ...settings,
        smartPit: {
          smartPitId: "",
          apiKeySet: false,
          apiKeyMasked: "",
          isActive: true,
          usable: false,
          missing: ["SmartPit ID", "APIキー"],
        },
      }),
    });
    await userEvent.click(await screen.findByRole("tab", { name: "SmartPit" }));
    expect(await screen.findByTestId("method-status")).toHaveTextContent(
      "有効になっていますが、次の項目が未設定のため会員には表示されません：SmartPit ID、APIキー",
    );
  });

  it("lists money that could not be credited and marks it refunded with a note", async () => {
    const row: RouterOutputs["adminPayments"]["notifications"]["notifications"][number] = {
      id: "0b6f0d1e-1111-4222-8333-444455556666",
      provider: "smartpit",
      transactionRef: "TX20261126LATE0001",
      paymentCode: "12345678901234",
      amount: 3000,
      outcome: "unsettled",
      reason: "account_closed",
      receivedAt: new Date("2026-11-26T10:00:00+09:00"),
      resolution: null,
      resolvedAt: null,
      resolvedBy: null,
      resolutionNote: null,
      transaction: {
        id: "t9",
        transactionId: "TX20261126LATE0001",
        status: "cancelled",
        points: 1500,
        user: { userID: "gone01", name: "退会 太郎" },
      },
    };
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <PaymentTransactions />
      </>,
      {
        "adminPayments.list": () => ({
          transactions: [],
          pagination: { currentPage: 1, totalPages: 1, total: 0 },
          totals: { count: 0, amount: 0, points: 0 },
        }),
        "adminPayments.sales": () => [],
        "adminPayments.notifications": () => ({
          notifications: [row],
          pagination: { currentPage: 1, totalPages: 1, total: 1 },
        }),
        "adminPayments.resolveNotification": () => ({ ...row, resolution: "refunded" }),
      },
    );
    const listed = await screen.findByTestId("notification-row");
    expect(listed).toHaveTextContent("要対応（未付与の入金）");
    expect(listed).toHaveTextContent("会員が退会済みのため付与できません");
    expect(listed).toHaveTextContent("退会 太郎");
    await userEvent.click(within(listed).getByRole("button", { name: /返金済みにする/ }));
    await userEvent.type(await screen.findByLabelText("メモ（任意）"), "口座へ返金");
    await userEvent.click(screen.getByRole("button", { name: "返金済みにする" }));
    expect(await screen.findByText("入金を処理済みにしました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminPayments.resolveNotification")).toEqual([
      {
        path: "adminPayments.resolveNotification",
        input: { id: row.id, resolution: "refunded", note: "口座へ返金" },
      },
    ]);
  });
});
