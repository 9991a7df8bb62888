import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../test/render";
import { LoginPage } from "./LoginPage";

// /login reads `legal.info` with a plain GET once idle (its entry carries no API client): the
// answer in tRPC's HTTP form, superjson's `json` inside.
const legalInfo = vi.fn<() => Promise<Response>>();
const answer = (data: unknown) =>
  new Response(JSON.stringify({ result: { data: { json: data } } }), {
    headers: { "content-type": "application/json" },
  });
beforeEach(() => {
  legalInfo.mockReset();
  vi.stubGlobal("fetch", (url: string) =>
    url === "/trpc/legal.info" ? legalInfo() : Promise.reject(new Error(`unexpected ${url}`)),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("login screen", { timeout: 20_000 }, () => {
  it("names the operator's configured support address (legal.info), not one of its own", async () => {
    legalInfo.mockResolvedValue(answer({ operator: { email: "help@operator.example.jp" } }));
    renderWithProviders(<LoginPage />);
    const link = await screen.findByTestId("support-address");
    expect(link).toHaveTextContent("help@operator.example.jp");
    expect(link).toHaveAttribute("href", "mailto:help@operator.example.jp");
    expect(document.body.textContent).not.toContain("support@enmusubi.jp");
  });

  it.each([
    ["the network fails", () => Promise.reject(new Error("offline"))],
    ["the server refuses", () => Promise.resolve(new Response("{}", { status: 503 }))],
    ["the answer has no address", () => Promise.resolve(answer({ operator: {} }))],
  ])("says 運営事務局 when %s", async (_, reply) => {
    legalInfo.mockImplementation(reply);
    renderWithProviders(<LoginPage />);
    await vi.waitFor(() => expect(legalInfo).toHaveBeenCalled());
    // The answer's promise chain settles within the macrotask after the reply's (no time passes).
    await legalInfo.mock.results[0]?.value.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByTestId("support-address")).not.toBeInTheDocument();
    expect(screen.getByText(/移行をご希望の方は運営事務局までお問い合わせください。/)).toBeInTheDocument();
  });
});
