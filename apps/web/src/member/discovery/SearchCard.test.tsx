import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type PublicProfile, pointCost, profileDetail, publicProfile } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { ProfileSearch } from "./ProfileSearch";

/** A search result card: its name opens the paid detail (keyboard too), as its photo does; the cost note above. */
const hanako = publicProfile({
  id: "11111111-1111-4111-8111-111111111111",
  name: "花子",
  gender: "female",
  age: 28,
  prefecture: "東京都",
});
const others = Array.from({ length: 11 }, (_, i) =>
  publicProfile({ id: `11111111-1111-4111-8111-1111111111${String(i).padStart(2, "0")}`, name: `会員${i}` }),
);
const page = (profiles: PublicProfile[]) => ({
  profiles: profiles.map((p) => ({ ...p, isFavorite: false })),
  total: profiles.length,
  totalCapped: false,
  page: 1,
  limit: 20,
  totalPages: 1,
});

const handlers: Handlers = {
  "scheduled.list": () => [],
  "reference.pointCosts.list": () => [pointCost("profile_view", 15)],
  "reference.occupations.list": () => [],
  "reference.annualIncomes.list": () => [],
  "members.search": () => page([hanako]),
  "members.viewPrice": () => ({ cost: 0, free: true, freeUntil: null, reason: "recentView" as const }),
  "members.viewProfile": () => ({ profile: profileDetail(hanako), charged: false, remainingPoints: 100 }),
};

async function openedAndClosed() {
  await screen.findByRole("dialog", { name: "花子さんのプロフィール" });
  await userEvent.keyboard("{Escape}");
  await waitFor(() => expect(screen.queryByRole("dialog", { name: "花子さんのプロフィール" })).not.toBeInTheDocument());
}

describe("a search result card", () => {
  it("opens the detail from its name, a button reached by the keyboard, in every view", async () => {
    renderWithProviders(<ProfileSearch />, handlers);
    await screen.findAllByTestId("search-result");
    for (const view of ["グリッド", "カード", "リスト"]) {
      await userEvent.click(screen.getByRole("radio", { name: view }));
      const card = (await screen.findAllByTestId("search-result"))[0] as HTMLElement;
      const [name, ...more] = within(card).getAllByRole("button", { name: "花子さんの詳細" });
      expect(more).toEqual([]);
      // The control is the visible name itself, in the tab order.
      expect(name?.tagName).toBe("BUTTON");
      expect(name).toHaveTextContent(/^花子$/);
      expect(name).not.toHaveAttribute("tabindex", "-1");
      name?.focus();
      await userEvent.keyboard("{Enter}");
      await openedAndClosed();
    }
  }, 30_000);

  it("opens the detail from its photo too (a pointer's larger target, not a second tab stop)", async () => {
    renderWithProviders(<ProfileSearch />, handlers);
    for (const view of ["グリッド", "カード", "リスト"]) {
      await userEvent.click(await screen.findByRole("radio", { name: view }));
      const card = (await screen.findAllByTestId("search-result"))[0] as HTMLElement;
      const photo = within(card).getByRole("img", { name: "花子（写真なし）", hidden: true });
      expect(photo.closest("button")).toHaveAttribute("tabindex", "-1");
      await userEvent.click(photo);
      await openedAndClosed();
    }
  }, 30_000);

  it("states the cost of a detail at the top of the results, before the first card", async () => {
    renderWithProviders(<ProfileSearch />, { ...handlers, "members.search": () => page([hanako, ...others]) });
    const cards = await screen.findAllByTestId("search-result");
    expect(cards).toHaveLength(12);
    const note = await screen.findByText("プロフィール詳細の閲覧には15ptが必要です。");
    expect(note.compareDocumentPosition(cards[0] as HTMLElement) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
