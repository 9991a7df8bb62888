import { MSG, POINT_COST_TABLE } from "@enmusubi/shared";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../test/render";
import { PointCosts } from "./PointCosts";

const legal = POINT_COST_TABLE.map((row) => ({
  actionName: row.actionName,
  displayName: row.displayName,
  pointCost: row.initialFee,
  description: row.description,
  maxCost: row.initialFee,
  offered: row.offered,
}));
// Added later: capped at 500 like movie_play, which is a legal row; only the action name tells them apart.
const custom = {
  actionName: "video_call",
  displayName: "ビデオ通話",
  pointCost: 5,
  description: "",
  maxCost: 500,
  offered: false,
};

function rowOf(actionName: string): HTMLElement {
  const row = document.querySelector<HTMLElement>(`tr[data-action="${actionName}"]`);
  if (!row) throw new Error(`no row ${actionName}`);
  return row;
}

describe("PointCosts", () => {
  it("offers no delete on the legal fee table's rows and says why; other rows can be deleted", async () => {
    const { calls } = renderWithProviders(<PointCosts />, {
      "reference.pointCosts.list": () => [...legal, custom],
      "reference.pointCosts.delete": () => ({ success: true }),
    });
    await screen.findByText("ビデオ通話");
    for (const row of legal) {
      const cells = within(rowOf(row.actionName));
      expect(cells.queryByRole("button", { name: "削除" })).not.toBeInTheDocument();
      expect(cells.getByRole("button", { name: "編集" })).toBeInTheDocument();
      const badge = cells.getByText("料金表").closest("[aria-describedby]");
      expect(badge).toHaveAttribute("aria-describedby", "point-costs-legal-note");
    }
    expect(document.getElementById("point-costs-legal-note")).toHaveTextContent(MSG.legalPointCostNotDeletable);
    // Which prices are live: 課金中 for what the product charges, 未提供 for the rest (decision 0026).
    expect(within(rowOf("profile_view")).getByText("課金中").closest("[aria-describedby]")).toHaveAttribute(
      "aria-describedby",
      "point-costs-offered-note",
    );
    expect(within(rowOf("movie_play")).getByText("未提供")).toBeInTheDocument();
    expect(within(rowOf("video_call")).getByText("未提供")).toBeInTheDocument();

    await userEvent.click(within(rowOf("video_call")).getByRole("button", { name: "削除" }));
    await userEvent.click(await screen.findByRole("button", { name: "削除する" }));
    expect(calls.filter((c) => c.path === "reference.pointCosts.delete")).toEqual([
      { path: "reference.pointCosts.delete", input: { actionName: "video_call" } },
    ]);
  });
});
