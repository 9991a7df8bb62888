import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../test/render";
import { UserManagement } from "./UserManagement";

const page = (total: number, totalEstimated: boolean) => ({
  users: [],
  total,
  totalEstimated,
  page: 1,
  pageSize: 50,
  totalPages: Math.max(1, Math.ceil(total / 50)),
});

describe("UserManagement total", () => {
  it("shows an exact count as it is", async () => {
    renderWithProviders(<UserManagement />, { "adminUsers.list": () => page(7, false) });
    expect(await screen.findByText("総ユーザー数: 7人")).toBeInTheDocument();
  });

  it("marks the server's estimate (above 10,000 members) with 約", async () => {
    renderWithProviders(<UserManagement />, { "adminUsers.list": () => page(1_000_000, true) });
    expect(await screen.findByText("総ユーザー数: 約1,000,000人")).toBeInTheDocument();
  });
});
