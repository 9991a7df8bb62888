import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MemberCard } from "../member/MemberCard";
import { useCurrentUser } from "../member/useCurrentUser";
import { me as fixtureMe } from "../test/fixtures";
import { renderWithProviders } from "../test/render";
import { emitPointsDeducted, usePointsDeductedListener } from "./points";

function LiveCard() {
  usePointsDeductedListener();
  const { data } = useCurrentUser();
  return data ? <MemberCard user={data} /> : null;
}

const me = fixtureMe({ id: "u1", userID: "hanako1", name: null, email: "h@example.jp", gender: "female" });

describe("points:deducted", () => {
  it("updates the member card's balance from the event's remainingPoints; other events are ignored", async () => {
    const { queryClient } = renderWithProviders(<LiveCard />, { "profile.me": () => me });
    const points = await screen.findByTestId("member-card-points");
    expect(points).toHaveTextContent("100pt");
    expect(screen.getByText("未設定")).toBeInTheDocument();
    act(() => emitPointsDeducted(85));
    // React Query notifies its observers on the next tick.
    await waitFor(() => expect(points).toHaveTextContent("85pt"));
    act(() => {
      window.dispatchEvent(new CustomEvent("points:deducted", { detail: { remainingPoints: "oops" } }));
    });
    // The listener answers at once: the cached balance the card shows is untouched.
    const [[, cached] = []] = queryClient.getQueriesData<typeof me>({ queryKey: [["profile", "me"]] });
    expect(cached?.points).toBe(85);
    expect(points).toHaveTextContent("85pt");
  });
});
