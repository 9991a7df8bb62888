import { MSG } from "@enmusubi/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../test/render";
import { ForgotPasswordModal } from "./ForgotPasswordModal";

describe("ForgotPasswordModal", () => {
  it("keeps confirm disabled until both fields are non-empty after trimming, then sends trimmed values", async () => {
    const onClose = vi.fn();
    const { calls } = renderWithProviders(<ForgotPasswordModal opened onClose={onClose} />, {
      "auth.forgot": () => ({ success: true, message: MSG.forgotSent }),
    });
    const confirm = await screen.findByRole("button", { name: "確認" });
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText("ユーザーID"), " taro01 ");
    await userEvent.type(screen.getByLabelText("メールアドレス"), "   ");
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByLabelText("メールアドレス"), "taro@example.jp");
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toEqual([{ path: "auth.forgot", input: { userID: "taro01", email: "taro@example.jp" } }]);
  });
});
