import { MSG, phoneCodeWrongLeft } from "@enmusubi/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { PhoneNotice } from "./PhoneNotice";
import { PhoneVerificationPage } from "./PhoneVerificationPage";

type Status = RouterOutputs["phone"]["status"];

const httpError = (httpStatus: number, message: string) =>
  new TRPCClientError(message, { result: { error: { code: -32000, message, data: { httpStatus } } } } as never);

const status = (extra: Partial<Status> = {}): Status => ({
  verified: false,
  phone: null,
  verifiedAt: null,
  pendingCode: null,
  resendWaitSeconds: 0,
  signupBonus: { points: 100, pending: true, grantedAt: null },
  loginBonusPoints: 5,
  ...extra,
});

describe("PhoneVerificationPage", () => {
  it("says what verifying unlocks, sends the number as typed, then asks for the code", async () => {
    let current = status();
    const { calls } = renderWithProviders(<PhoneVerificationPage />, {
      "phone.status": () => current,
      "phone.requestCode": () => {
        current = status({
          pendingCode: { phone: "090-1234-5678", expiresAt: new Date(Date.now() + 600_000), attemptsLeft: 5 },
          resendWaitSeconds: 60,
        });
        return {
          message: MSG.phoneCodeSent,
          phone: "090-1234-5678",
          expiresAt: new Date(Date.now() + 600_000),
          resendWaitSeconds: 60,
        };
      },
    });
    expect(await screen.findByText("登録特典 100pt（無料ポイント・1アカウント1回）")).toBeInTheDocument();
    expect(screen.getByText(/毎日のログインボーナス 5pt/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/携帯電話番号/), "０９０−１２３４−５６７８");
    await userEvent.click(screen.getByRole("button", { name: "確認コードを送信" }));
    expect(await screen.findByTestId("phone-code-sent")).toHaveTextContent("090-1234-5678 にSMSで送信した");
    expect(calls.find((c) => c.path === "phone.requestCode")?.input).toEqual({ phone: "０９０−１２３４−５６７８" });
    // The resend waits, and says how long.
    expect(screen.getByRole("button", { name: /再送信まであと\d+秒/ })).toBeDisabled();
    expect(screen.getByLabelText(/確認コード/)).toBeInTheDocument();
  });

  it("shows the server's Japanese refusal of a wrong code in an alert", async () => {
    renderWithProviders(<PhoneVerificationPage />, {
      "phone.status": () =>
        status({ pendingCode: { phone: "080-1111-2222", expiresAt: new Date(Date.now() + 600_000), attemptsLeft: 5 } }),
      "phone.confirmCode": () => {
        throw httpError(400, phoneCodeWrongLeft(4));
      },
    });
    await userEvent.type(await screen.findByLabelText(/確認コード/), "123456");
    await userEvent.click(screen.getByRole("button", { name: "認証する" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(phoneCodeWrongLeft(4));
  });

  it("verified: the masked number, no form", async () => {
    renderWithProviders(<PhoneVerificationPage />, {
      "phone.status": () =>
        status({
          verified: true,
          phone: "090-****-5678",
          verifiedAt: new Date("2026-12-01T03:00:00Z"),
          signupBonus: { points: 100, pending: false, grantedAt: new Date("2026-12-01T03:00:00Z") },
        }),
    });
    expect(await screen.findByTestId("phone-verified")).toHaveTextContent("090-****-5678");
    expect(screen.getByText("登録特典は受け取り済みです")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "確認コードを送信" })).not.toBeInTheDocument();
  });
});

describe("PhoneNotice (dashboard)", () => {
  it("links to the screen while unverified, and is gone once verified", async () => {
    const { unmount } = renderWithProviders(<PhoneNotice />, { "phone.status": () => status() });
    expect(await screen.findByRole("link", { name: "電話番号を認証する" })).toHaveAttribute(
      "href",
      "/user/phone-verification",
    );
    expect(screen.getByText(/登録特典100pt/)).toBeInTheDocument();
    unmount();
    const { calls } = renderWithProviders(<PhoneNotice />, { "phone.status": () => status({ verified: true }) });
    await waitFor(() => expect(calls.some((c) => c.path === "phone.status")).toBe(true));
    expect(screen.queryByTestId("phone-notice")).not.toBeInTheDocument();
  });
});
