import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../test/render";
import { LoginPage } from "./LoginPage";

// /login reaches the API through the shared client it imports lazily (not the providers' hooks).
const legalInfo = vi.hoisted(() => vi.fn());
vi.mock("../lib/api-providers", () => ({ trpcClient: { legal: { info: { query: legalInfo } } } }));

describe("login screen", { timeout: 20_000 }, () => {
  it("names the operator's configured support address (legal.info), not one of its own", async () => {
    legalInfo.mockResolvedValue({ operator: { email: "help@operator.example.jp" } });
    renderWithProviders(<LoginPage />);
    const link = await screen.findByTestId("support-address");
    expect(link).toHaveTextContent("help@operator.example.jp");
    expect(link).toHaveAttribute("href", "mailto:help@operator.example.jp");
    expect(document.body.textContent).not.toContain("support@enmusubi.jp");
  });

  it("says 運営事務局 when the address cannot be read", async () => {
    legalInfo.mockRejectedValue(new Error("offline"));
    renderWithProviders(<LoginPage />);
    await vi.waitFor(() => expect(legalInfo).toHaveBeenCalled());
    expect(screen.queryByTestId("support-address")).not.toBeInTheDocument();
    expect(screen.getByText(/移行をご希望の方は運営事務局までお問い合わせください。/)).toBeInTheDocument();
  });
});
