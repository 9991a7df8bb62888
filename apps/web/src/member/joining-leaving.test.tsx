import { MSG, TERMS_CHANGE_SUMMARY, TERMS_VERSION } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { SignupPage } from "../public/SignupPage";
import { renderWithProviders } from "../test/render";
import { ConsentGate } from "./ConsentGate";
import { PointExpiry } from "./PointExpiry";
import { WithdrawSection } from "./settings/WithdrawSection";

const httpError = (httpStatus: number, message: string) =>
  new TRPCClientError(message, {
    result: { error: { code: -32000, message, data: { httpStatus } } },
  } as never);

const consent = (required: boolean) => ({
  termsVersion: required ? null : TERMS_VERSION,
  acceptedAt: required ? null : new Date("2026-11-26T00:00:00Z"),
  currentVersion: TERMS_VERSION,
  required,
});

describe("sign-up asks for consent (decision 0034)", () => {
  it("two unchecked boxes with links; both required before anything is sent; then join with the version", async () => {
    const { calls } = renderWithProviders(<SignupPage />, {
      "auth.join": () => ({ success: true as const, message: MSG.signupDone }),
    });
    const terms = screen.getByRole("checkbox", { name: /利用規約/ });
    const adult = screen.getByRole("checkbox", { name: /18歳以上/ });
    expect(terms).not.toBeChecked();
    expect(adult).not.toBeChecked();
    const form = within(screen.getByRole("button", { name: "登録する" }).closest("form") as HTMLElement);
    expect(form.getByRole("link", { name: "利用規約" })).toHaveAttribute("href", "/legal/terms-of-service");
    expect(form.getByRole("link", { name: "プライバシーポリシー" })).toHaveAttribute("href", "/legal/privacy-policy");
    await userEvent.type(screen.getByLabelText(/メールアドレス/), "new@example.jp");
    await userEvent.click(screen.getByRole("button", { name: "登録する" }));
    expect(await screen.findByText(MSG.termsConsentRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.adultDeclarationRequired)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "auth.join")).toHaveLength(0);
    await userEvent.click(terms);
    await userEvent.click(adult);
    await userEvent.click(screen.getByRole("button", { name: "登録する" }));
    expect(await screen.findByTestId("signup-done")).toHaveTextContent("100pt（無料ポイント）");
    // The member will be shown by a nickname: not their real name (decision 0043).
    expect(screen.getByTestId("signup-done")).toHaveTextContent(
      `ニックネームを登録してください。${MSG.nicknameAdvice}`,
    );
    expect(calls.find((c) => c.path === "auth.join")?.input).toEqual({
      email: "new@example.jp",
      gender: "male",
      acceptTerms: true,
      adult: true,
      termsVersion: TERMS_VERSION,
    });
  });
});

describe("the first-sign-in gate", () => {
  it("asks a member without consent before drawing the screen, and lets them through once accepted", async () => {
    const { calls } = renderWithProviders(
      <ConsentGate>
        <p>ダッシュボードの中身</p>
      </ConsentGate>,
      {
        "account.consent": () => consent(true),
        "account.acceptTerms": () => consent(false),
      },
    );
    expect(await screen.findByRole("heading", { name: "利用規約への同意" })).toBeInTheDocument();
    expect(screen.queryByText("ダッシュボードの中身")).not.toBeInTheDocument();
    // Never accepted: nothing "changed" to tell.
    expect(screen.queryByTestId("terms-change")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "同意して始める" }));
    expect(await screen.findByText(MSG.termsConsentRequired)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("checkbox", { name: /利用規約/ }));
    await userEvent.click(screen.getByRole("checkbox", { name: /18歳以上/ }));
    await userEvent.click(screen.getByRole("button", { name: "同意して始める" }));
    expect(await screen.findByText("ダッシュボードの中身")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "account.acceptTerms")?.input).toEqual({
      acceptTerms: true,
      adult: true,
      termsVersion: TERMS_VERSION,
    });
  });

  it("asks a member who accepted an older version again, saying what changed (the monitoring clause)", async () => {
    const { calls } = renderWithProviders(
      <ConsentGate>
        <p>ダッシュボードの中身</p>
      </ConsentGate>,
      {
        "account.consent": () => ({ ...consent(true), termsVersion: "2026-11-26", acceptedAt: new Date() }),
        "account.acceptTerms": () => consent(false),
      },
    );
    expect(await screen.findByRole("heading", { name: "利用規約の改定への同意" })).toBeInTheDocument();
    expect(screen.getByTestId("terms-change")).toHaveTextContent(TERMS_CHANGE_SUMMARY);
    expect(TERMS_CHANGE_SUMMARY).toContain("自動で確認");
    expect(screen.queryByText("ダッシュボードの中身")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("checkbox", { name: /利用規約/ }));
    await userEvent.click(screen.getByRole("checkbox", { name: /18歳以上/ }));
    await userEvent.click(screen.getByRole("button", { name: "同意して始める" }));
    expect(await screen.findByText("ダッシュボードの中身")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "account.acceptTerms")?.input).toMatchObject({ termsVersion: TERMS_VERSION });
  });

  it("draws the screen at once for a member who accepted", async () => {
    renderWithProviders(
      <ConsentGate>
        <p>ダッシュボードの中身</p>
      </ConsentGate>,
      { "account.consent": () => consent(false) },
    );
    expect(await screen.findByText("ダッシュボードの中身")).toBeInTheDocument();
  });
});

describe("the balance by expiry", () => {
  it("shows purchased and free points apart and the next expiry date and amount", async () => {
    const day = { day: "2027-05-25", expiresAt: new Date("2027-05-25T03:00:00Z"), purchased: 0, free: 100 };
    renderWithProviders(<PointExpiry schedule />, {
      "account.pointBalance": () => ({
        total: 600,
        purchased: 500,
        free: 100,
        nextExpiry: day,
        schedule: [day, { day: "2029-11-26", expiresAt: new Date("2029-11-26T03:00:00Z"), purchased: 500, free: 0 }],
      }),
    });
    expect(await screen.findByTestId("points-purchased")).toHaveTextContent("500pt");
    expect(screen.getByTestId("points-free")).toHaveTextContent("100pt");
    expect(screen.getByTestId("next-expiry")).toHaveTextContent("2027年5月25日に100pt（無料 100pt）が失効します");
    expect(screen.getByRole("table", { name: "有効期限ごとのポイント" })).toHaveTextContent("2029年11月26日");
    expect(
      screen.getByText(/無料ポイント（登録特典・運営からの付与）の有効期限は付与日から180日間/),
    ).toBeInTheDocument();
  });
});

describe("WithdrawSection", () => {
  const preview = { purchased: 500, free: 100, lapsed: 0, sendPoints: 20 };

  it("needs the password; the confirmation names what is lost and kept, then withdraws with the password", async () => {
    const { calls } = renderWithProviders(<WithdrawSection />, {
      "account.withdrawalPreview": () => preview,
      "account.withdraw": () => ({ success: true as const, message: MSG.withdrawDone, forfeited: preview }),
    });
    await userEvent.click(screen.getByRole("button", { name: "退会する" }));
    expect(await screen.findByText(MSG.withdrawPasswordRequired)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/パスワード/), "secret-pass");
    await userEvent.click(screen.getByRole("button", { name: "退会する" }));
    const dialog = await screen.findByRole("dialog", { name: "退会の確認" });
    await waitFor(() => expect(screen.getByTestId("withdraw-lost")).toHaveTextContent("購入ポイント：500pt"));
    expect(dialog).toHaveTextContent("無料ポイント：100pt");
    expect(dialog).toHaveTextContent("アカウント情報は退会後1年間保存");
    expect(dialog).toHaveTextContent("利用履歴は3年間保存");
    const confirm = within(dialog).getByRole("button", { name: "退会する" });
    await waitFor(() => expect(confirm).toBeEnabled());
    await userEvent.click(confirm);
    await waitFor(() => expect(calls.some((c) => c.path === "account.withdraw")).toBe(true));
    expect(calls.find((c) => c.path === "account.withdraw")?.input).toEqual({ password: "secret-pass" });
  });

  it("a wrong password is told on the password field, nothing else happens", async () => {
    renderWithProviders(<WithdrawSection />, {
      "account.withdrawalPreview": () => preview,
      "account.withdraw": () => {
        throw httpError(400, MSG.withdrawPasswordWrong);
      },
    });
    await userEvent.type(screen.getByLabelText(/パスワード/), "wrong-pass");
    await userEvent.click(screen.getByRole("button", { name: "退会する" }));
    const dialog = await screen.findByRole("dialog", { name: "退会の確認" });
    const confirm = within(dialog).getByRole("button", { name: "退会する" });
    await waitFor(() => expect(confirm).toBeEnabled());
    await userEvent.click(confirm);
    expect(await screen.findByText(MSG.withdrawPasswordWrong)).toBeInTheDocument();
  });
});
