import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { publicProfile } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { ProfileDetailModal } from "./ProfileDetailModal";
import { ProfileResult, type ResultActions, type SearchView } from "./ProfileResult";

const verified = publicProfile({ id: "11111111-1111-4111-8111-111111111111", name: "花子", verified: true });
const waiting = publicProfile({ id: "22222222-2222-4222-8222-222222222222", name: "未確認さん", verified: false });
const actions: ResultActions = {
  onView: () => {},
  onMessage: () => {},
  onFavorite: () => {},
  viewing: false,
  favoriteBusy: false,
};

describe("the 年齢確認済み badge (decision 0025)", () => {
  for (const view of ["grid", "card", "list"] as SearchView[]) {
    it(`${view}: shown on a verified member's result, not on the others'`, () => {
      renderWithProviders(
        <>
          <ProfileResult profile={verified} isFavorite={false} view={view} actions={actions} />
          <ProfileResult profile={waiting} isFavorite={false} view={view} actions={actions} />
        </>,
        {},
      );
      const [first, second] = screen.getAllByTestId("search-result");
      expect(within(first as HTMLElement).getByText("年齢確認済み")).toBeInTheDocument();
      expect(within(second as HTMLElement).queryByText("年齢確認済み")).not.toBeInTheDocument();
    });
  }

  it("the profile detail shows it for a verified member only", async () => {
    const { unmount } = renderWithProviders(<ProfileDetailModal profile={verified} onClose={() => {}} />, {});
    const dialog = await screen.findByRole("dialog", { name: "花子さんのプロフィール" });
    expect(within(dialog).getByText("年齢確認済み")).toBeInTheDocument();
    unmount();
    renderWithProviders(<ProfileDetailModal profile={waiting} onClose={() => {}} />, {});
    const other = await screen.findByRole("dialog", { name: "未確認さんさんのプロフィール" });
    expect(within(other).queryByText("年齢確認済み")).not.toBeInTheDocument();
  });
});
