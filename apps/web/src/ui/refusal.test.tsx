import { MSG, REFUSAL_REASONS } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it, vi } from "vitest";
import { BoardSearch } from "../member/board/BoardSearch";
import { me } from "../test/fixtures";
import { renderWithProviders } from "../test/render";
import { ListStates } from "./ListStates";
import { notifyFailure } from "./notify-failure";
import { isVerificationRefusal } from "./refusal";

/** A tRPC failure as the server sends it (decision 0032: `data.reason` beside the message). */
const refusal = (httpStatus: number, message: string, reason?: string) =>
  new TRPCClientError(message, {
    result: { error: { code: -32000, message, data: { httpStatus, ...(reason ? { reason } : {}) } } },
  } as never);

const unverified = () => refusal(403, MSG.verificationRequired, REFUSAL_REASONS.verificationRequired);

describe("a refusal for want of verification (decision 0032)", () => {
  it("is told by its reason, not by its text", () => {
    expect(isVerificationRefusal(unverified())).toBe(true);
    expect(isVerificationRefusal(refusal(403, MSG.verificationRequired))).toBe(false);
    expect(isVerificationRefusal(refusal(403, MSG.forbidden))).toBe(false);
    expect(isVerificationRefusal(new Error("x"))).toBe(false);
  });

  it("a list shows the verification notice and its link, no path in the text and no retry", async () => {
    const onRetry = vi.fn();
    renderWithProviders(
      <ListStates
        isLoading={false}
        isError
        error={unverified()}
        errorText="取得に失敗しました"
        onRetry={onRetry}
        isEmpty={false}
        emptyText=""
      >
        <p>中身</p>
      </ListStates>,
    );
    const link = await screen.findByRole("link", { name: MSG.verificationBannerLink });
    expect(link).toHaveAttribute("href", "/user/verification");
    expect(screen.getByText(MSG.verificationRefusal)).toBeInTheDocument();
    expect(screen.queryByText(/\/user\/verification/)).toBeNull();
    expect(screen.queryByRole("button", { name: "再試行" })).toBeNull();
  });

  it("another failure keeps its text and the retry", async () => {
    const onRetry = vi.fn();
    renderWithProviders(
      <ListStates
        isLoading={false}
        isError
        error={refusal(500, "x")}
        errorText="取得に失敗しました"
        onRetry={onRetry}
        isEmpty={false}
        emptyText=""
      >
        <p>中身</p>
      </ListStates>,
    );
    await userEvent.click(await screen.findByRole("button", { name: "再試行" }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.queryByRole("link", { name: MSG.verificationBannerLink })).toBeNull();
  });

  it("the board opened by a member who is not verified: the notice with its link", async () => {
    renderWithProviders(<BoardSearch />, {
      "profile.me": () => me(),
      "board.access": () => {
        throw unverified();
      },
    });
    expect(await screen.findByRole("link", { name: MSG.verificationBannerLink })).toHaveAttribute(
      "href",
      "/user/verification",
    );
    expect(screen.queryByText(/（\/user\/verification）/)).toBeNull();
    expect(screen.queryByRole("button", { name: "再試行" })).toBeNull();
  });

  it("a refused action's notification carries the notice and the link", async () => {
    renderWithProviders(<Notifications />);
    notifyFailure(unverified(), "送信に失敗しました");
    expect(await screen.findByText(MSG.verificationRefusal)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: MSG.verificationBannerLink })).toHaveAttribute(
      "href",
      "/user/verification",
    );
    notifyFailure(refusal(409, "ブロック中です"), "送信に失敗しました");
    expect(await screen.findByText("ブロック中です")).toBeInTheDocument();
  });
});
