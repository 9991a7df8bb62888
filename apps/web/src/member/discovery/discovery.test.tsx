import { Notifications } from "@mantine/notifications";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { type PublicProfile, pointCost, publicProfile } from "../../test/fixtures";
import { type Handlers, renderWithProviders } from "../../test/render";
import { FavoriteList } from "./FavoriteList";
import { ProfileSearch } from "./ProfileSearch";

const profile = (id: string, name: string | null, extra: Partial<PublicProfile> = {}): PublicProfile =>
  publicProfile({
    id,
    name,
    gender: "female",
    age: 28,
    prefecture: "東京都",
    createdAt: new Date("2026-11-01T00:00:00Z"),
    ...extra,
  });
const hanako = profile("11111111-1111-4111-8111-111111111111", "花子");
const noName = profile("22222222-2222-4222-8222-222222222222", null, { photoLink: "/uploads/p.jpg" });

const common: Handlers = {
  "scheduled.list": () => [],
  "reference.pointCosts.list": () => [],
  "reference.occupations.list": () => [],
  "reference.annualIncomes.list": () => [],
};

describe("FavoriteList", () => {
  it("shows the loading text, then cards with placeholder or lazy photo (alt = name) and 未設定", async () => {
    renderWithProviders(<FavoriteList />, { ...common, "members.favorites": () => [hanako, noName] });
    expect(screen.getByText("読み込み中...")).toBeInTheDocument();
    const cards = await screen.findAllByTestId("favorite-card");
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).getByText("花子")).toBeInTheDocument();
    expect(within(cards[1] as HTMLElement).getByText("未設定")).toBeInTheDocument();
    const img = within(cards[1] as HTMLElement).getByRole("img", { name: "未設定" });
    expect(img).toHaveAttribute("loading", "lazy");
    expect(within(cards[0] as HTMLElement).getByRole("img", { name: "花子（写真なし）" })).toBeInTheDocument();
  });

  it("shows the empty state, and an error with a retry", async () => {
    let fail = true;
    renderWithProviders(<FavoriteList />, {
      ...common,
      "members.favorites": () => {
        if (fail) throw new Error("down");
        return [];
      },
    });
    expect(await screen.findByText("お気に入り一覧の取得に失敗しました。")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText(/お気に入りに登録した会員はいません/)).toBeInTheDocument();
  });

  it("removes after confirmation, and says so when it fails", async () => {
    let fail = false;
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <FavoriteList />
      </>,
      {
        ...common,
        "members.favorites": () => [hanako],
        "members.removeFavorite": () => {
          if (fail) throw new Error("down");
          return { success: true as const };
        },
      },
    );
    await userEvent.click(await screen.findByRole("button", { name: "花子さんを削除" }));
    await userEvent.click(await screen.findByRole("button", { name: "削除する" }));
    expect(await screen.findByText("お気に入りから削除しました")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "members.removeFavorite")).toHaveLength(1);
    fail = true;
    await userEvent.click(await screen.findByRole("button", { name: "花子さんを削除" }));
    await userEvent.click(await screen.findByRole("button", { name: "削除する" }));
    expect(await screen.findByText("お気に入りからの削除に失敗しました")).toBeInTheDocument();
  });
});

describe("ProfileSearch", () => {
  const page = (profiles: (PublicProfile & { isFavorite: boolean })[]) => ({
    profiles,
    total: profiles.length,
    totalCapped: false,
    page: 1,
    limit: 20,
    totalPages: 1,
  });

  it("searches with excludeSameSex on by default and shows the no-results message", async () => {
    const { calls } = renderWithProviders(<ProfileSearch />, { ...common, "members.search": () => page([]) });
    expect(await screen.findByText("検索条件に一致するプロフィールが見つかりませんでした。")).toBeInTheDocument();
    const search = calls.find((c) => c.path === "members.search");
    expect(search?.input).toMatchObject({ excludeSameSex: true, page: 1, limit: 20 });
  });

  it("shows the search failure with a retry, then the results", async () => {
    let fail = true;
    renderWithProviders(<ProfileSearch />, {
      ...common,
      "members.search": () => {
        if (fail) throw new Error("down");
        return page([{ ...hanako, isFavorite: true }]);
      },
    });
    expect(await screen.findByText("プロフィール検索に失敗しました。")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    const favourite = await screen.findByRole("button", { name: "花子さんをお気に入りから外す" });
    expect(favourite).toHaveAttribute("aria-pressed", "true");
  });

  it("asks before a paid view (cost shown) and says when points are short (402)", async () => {
    renderWithProviders(
      <>
        <Notifications />
        <ProfileSearch />
      </>,
      {
        ...common,
        "reference.pointCosts.list": () => [pointCost("profile_view", 15)],
        "members.search": () => page([{ ...hanako, isFavorite: false }]),
        "members.viewProfile": () => {
          throw new TRPCClientError("ポイントが不足しています。", {
            result: { error: { code: -32000, message: "ポイントが不足しています。", data: { httpStatus: 402 } } },
          } as never);
        },
      },
    );
    await userEvent.click(await screen.findByRole("button", { name: "花子さんの詳細" }));
    expect(await screen.findByText("プロフィールの閲覧には15ptが必要です。続けますか？")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "続ける" }));
    expect(await screen.findByText("あなたのポイント数が足りません。")).toBeInTheDocument();
    expect(screen.queryByRole("dialog", { name: "花子さんのプロフィール" })).not.toBeInTheDocument();
  });
});
