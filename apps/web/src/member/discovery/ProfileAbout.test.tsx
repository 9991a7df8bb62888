import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type PublicProfile, pointCost, profileDetail, publicProfile } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { ProfileAbout } from "./ProfileAbout";
import { ProfileSearch } from "./ProfileSearch";

/** Decision 0029: the paid detail shows 自己紹介 and the last-activity bucket; the search orders and finds them. */
const id = "11111111-1111-4111-8111-111111111111";
const hanako = publicProfile({ id, name: "花子", gender: "female", age: 28, prefecture: "東京都" });

const page = (profiles: (PublicProfile & { isFavorite: boolean })[]) => ({
  profiles,
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
  "members.search": () => page([{ ...hanako, isFavorite: false }]),
  "members.viewPrice": () => ({ cost: 0, free: true, freeUntil: null, reason: "recentView" as const }),
  "members.viewProfile": () => ({
    profile: profileDetail({
      ...hanako,
      selfIntroduction: "はじめまして。\n週末はカフェ巡り。",
      lastActive: "3日以内",
    }),
    charged: false,
    remainingPoints: 100,
  }),
};

describe("ProfileAbout", () => {
  it("shows the 自己紹介 with its line breaks and the bucket, never a time", () => {
    renderWithProviders(
      <ProfileAbout profile={profileDetail({ id, selfIntroduction: "一行目\n二行目", lastActive: "1ヶ月以上" })} />,
      {},
    );
    const section = screen.getByRole("region", { name: "自己紹介" });
    const text = within(section).getByText(/一行目/);
    expect(text.textContent).toBe("一行目\n二行目");
    expect(text).toHaveStyle({ whiteSpace: "pre-wrap" });
    expect(screen.getByTestId("last-active")).toHaveTextContent("最終ログイン: 1ヶ月以上");
  });

  it("says when there is no 自己紹介 yet", () => {
    renderWithProviders(<ProfileAbout profile={profileDetail({ id })} />, {});
    expect(screen.getByText("まだ自己紹介はありません。")).toBeInTheDocument();
  });

  it("shows nothing for a public profile (lists never carry the detail)", () => {
    const { container } = renderWithProviders(<ProfileAbout profile={hanako} />, {});
    expect(container).not.toHaveTextContent("自己紹介");
  });
});

describe("ProfileSearch and the detail", () => {
  it("orders by last activity by default, by registration when chosen; the keyword label names the 自己紹介", async () => {
    const { calls } = renderWithProviders(<ProfileSearch />, handlers);
    await screen.findByRole("button", { name: "花子さんの詳細" });
    const searches = () => calls.filter((c) => c.path === "members.search").map((c) => c.input);
    expect(searches()[0]).toMatchObject({ order: "active" });
    expect(screen.getByLabelText(/キーワード（ニックネーム・自己紹介）/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("combobox", { name: "並び順" }));
    await userEvent.click(
      within(await screen.findByRole("listbox", { name: "並び順", hidden: true })).getByRole("option", {
        name: "新しく登録した順",
        hidden: true,
      }),
    );
    await userEvent.type(screen.getByLabelText(/キーワード（ニックネーム・自己紹介）/), "かふぇ");
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await waitFor(() => expect(searches().at(-1)).toMatchObject({ order: "newest", keyword: "かふぇ" }));
  });

  it("no static 24-hour note; the opened detail shows the 自己紹介 and the bucket", async () => {
    renderWithProviders(<ProfileSearch />, handlers);
    await userEvent.click(await screen.findByRole("button", { name: "花子さんの詳細" }));
    const dialog = await screen.findByRole("dialog", { name: "花子さんのプロフィール" });
    expect(within(dialog).getByText(/週末はカフェ巡り。/)).toBeInTheDocument();
    expect(within(dialog).getByTestId("last-active")).toHaveTextContent("3日以内");
    expect(screen.queryByText(/24時間無料/)).not.toBeInTheDocument();
  });
});
