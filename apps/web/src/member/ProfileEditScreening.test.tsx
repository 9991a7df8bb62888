import { MSG } from "@enmusubi/shared";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it, vi } from "vitest";
import { me } from "../test/fixtures";
import { renderWithProviders } from "../test/render";
import { ProfileEditModal } from "./ProfileEditModal";

const refused = (message: string) =>
  new TRPCClientError(message, { result: { error: { code: -32600, message, data: { httpStatus: 400 } } } } as never);

describe("ProfileEditModal and screening (decision 0042)", () => {
  it("a name or 自己紹介 refused by screening shows the server's message; the dialog keeps what was typed", async () => {
    const onClose = vi.fn();
    renderWithProviders(<ProfileEditModal user={me({ name: "花子" })} opened onClose={onClose} />, {
      "reference.occupations.list": () => [],
      "reference.annualIncomes.list": () => [],
      "profile.update": () => {
        throw refused(MSG.screeningNameRefused);
      },
    });
    const intro = await screen.findByLabelText("自己紹介");
    await userEvent.click(intro);
    await userEvent.paste("LINE ID: hanako77 で連絡ください");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.screeningNameRefused)).toBeInTheDocument();
    expect(intro).toHaveValue("LINE ID: hanako77 で連絡ください");
    expect(onClose).not.toHaveBeenCalled();
  });
});
