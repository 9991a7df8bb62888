import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { pointCost } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { BulkSendDialog } from "./BulkSendDialog";

const contacts: { id: string; name: string; photoLink: null; role: "user" | "admin" }[] = [
  { id: "11111111-1111-4111-8111-111111111111", name: "花子", photoLink: null, role: "user" },
  { id: "22222222-2222-4222-8222-222222222222", name: "運営", photoLink: null, role: "admin" },
];

describe("BulkSendDialog", () => {
  it("selects all and clears all recipients", async () => {
    renderWithProviders(<BulkSendDialog opened onClose={() => {}} />, {
      "messages.contacts": () => contacts,
      "reference.pointCosts.list": () => [pointCost("send_message", 48)],
    });
    await screen.findByLabelText("花子");
    await userEvent.click(screen.getByRole("button", { name: "すべて選択" }));
    expect(await screen.findByText("2人選択中")).toBeInTheDocument();
    expect(screen.getByText("2人に送信（48ptが必要です）")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "すべて解除" }));
    expect(await screen.findByText("0人選択中")).toBeInTheDocument();
  });
});
