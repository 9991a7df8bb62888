import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { fakeMediaQueryList } from "../../test/media-query";
import { renderWithProviders } from "../../test/render";
import { PurchaseHistory } from "./PurchaseHistory";

type Transaction = RouterOutputs["purchase"]["history"]["transactions"][number];

const purchase = (id: string, status: Transaction["status"], amount: number, points: number): Transaction => ({
  id,
  transactionId: `PT-20261123-000${id}`,
  amount,
  points,
  bonusPoints: 0,
  paymentMethod: "smart_pit",
  status,
  createdAt: new Date("2026-11-23T10:00:00+09:00"),
  confirmedAt: status === "paid" ? new Date("2026-11-24T09:30:00+09:00") : null,
  cancelledAt: null,
  confirmedVia: null,
  confirmedBy: null,
  reinstatedAt: null,
  smartPit:
    status === "pending"
      ? {
          paymentCode: "123456789012",
          barcodeValue: "91234567890123",
          expiresAt: new Date("2026-11-30T23:59:00+09:00"),
        }
      : null,
  bank: null,
  card: null,
  refundedAt: null,
});

const history = () => ({
  transactions: [purchase("1", "pending", 3000, 1500), purchase("2", "paid", 10000, 5000)],
  pagination: { currentPage: 1, totalPages: 1, total: 2 },
});

function screenWidth(phone: boolean) {
  vi.spyOn(window, "matchMedia").mockImplementation((query: string) =>
    fakeMediaQueryList(query, phone && query.includes("max-width: 48em")),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("PurchaseHistory", () => {
  it("on a phone: one card per purchase with its date, amount, points, method and status, no table", async () => {
    screenWidth(true);
    renderWithProviders(<PurchaseHistory />, { "purchase.history": history });
    const cards = await screen.findAllByTestId("purchase-history-row");
    expect(cards).toHaveLength(2);
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.getByRole("list", { name: "購入履歴" })).toBeInTheDocument();
    const [pending, paid] = cards as [HTMLElement, HTMLElement];
    for (const text of ["3,000円", "1,500pt", "スマートピット（コンビニ払い）", "処理中", "PT-20261123-0001"])
      expect(pending).toHaveTextContent(text);
    expect(within(pending).getByRole("button", { name: "表示（取引 PT-20261123-0001 のお支払い方法）" })).toBeVisible();
    for (const text of ["10,000円", "5,000pt", "支払済", "入金確認"]) expect(paid).toHaveTextContent(text);
  });

  it("on a wide screen: the table", async () => {
    screenWidth(false);
    renderWithProviders(<PurchaseHistory />, { "purchase.history": history });
    const table = await screen.findByRole("table", { name: "購入履歴" });
    expect(within(table).getAllByTestId("purchase-history-row")).toHaveLength(2);
    expect(within(table).getByRole("columnheader", { name: "状態" })).toBeInTheDocument();
  });
});
