import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type BoardPost, boardPage, me, publicProfile } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { BoardSearch } from "./BoardSearch";

/** The board's 同性を除外する switch: the profile search's, on by default (decision 0040). */
const post = (id: string, title: string, extra: Partial<BoardPost> = {}): BoardPost => ({
  id,
  title,
  content: `${title}の本文です`,
  createdAt: new Date("2026-11-20T10:00:00Z"),
  author: publicProfile({ id: "a1", name: "花子", gender: "female", age: 28 }),
  byOperator: false,
  readerCount: 0,
  likeCount: 0,
  dislikeCount: 0,
  myReaction: null,
  isRead: false,
  isMine: false,
  ...extra,
});
const hers = post("11111111-1111-4111-8111-111111111111", "花子の投稿");
const mine = post("22222222-2222-4222-8222-222222222222", "自分の投稿", {
  author: publicProfile({ id: "me", name: "太郎", gender: "male" }),
  isMine: true,
});

describe("the board's same-gender switch", { timeout: 30_000 }, () => {
  it("asks for the other gender by default; switched off it lists everyone, said by a chip that restores it", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <BoardSearch />
      </>,
      {
        "profile.me": () => me(),
        "reference.pointCosts.list": () => [],
        "board.access": () => ({ open: true, openUntil: null, cost: 0 }),
        "board.list": (input) =>
          boardPage((input as { excludeSameSex?: boolean }).excludeSameSex === false ? [mine, hers] : [hers], 1, 1),
      },
    );
    const lists = () => calls.filter((c) => c.path === "board.list").map((c) => c.input);
    await screen.findByRole("article", { name: /花子の投稿/ });
    expect(lists()[0]).toMatchObject({ excludeSameSex: true });
    const toggle = screen.getByRole("switch", { name: "同性を除外する" });
    expect(toggle).toBeChecked();
    expect(screen.queryByTestId("filter-chips")).toBeNull();

    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole("button", { name: "検索" }));
    await screen.findByRole("article", { name: /自分の投稿/ });
    expect(lists().at(-1)).toEqual({ page: 1, excludeSameSex: false });
    const chips = screen.getByTestId("filter-chips");
    expect(
      within(chips)
        .getAllByTestId("filter-chip")
        .map((c) => c.textContent),
    ).toEqual(["同性も表示"]);

    await userEvent.click(within(chips).getByRole("button", { name: "同性も表示 を解除" }));
    await waitFor(() => expect(lists().at(-1)).toEqual({ page: 1, excludeSameSex: true }));
    expect(screen.getByRole("switch", { name: "同性を除外する" })).toBeChecked();
    expect(screen.queryByTestId("filter-chips")).toBeNull();
    await waitFor(() => expect(screen.queryByRole("article", { name: /自分の投稿/ })).toBeNull());

    await userEvent.click(screen.getByRole("switch", { name: "同性を除外する" }));
    await userEvent.click(screen.getByRole("button", { name: "クリア" }));
    expect(lists().at(-1)).toEqual({ page: 1, excludeSameSex: true });
    expect(screen.getByRole("switch", { name: "同性を除外する" })).toBeChecked();
  });
});
