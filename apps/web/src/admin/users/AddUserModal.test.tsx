import { MSG } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { member } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { AddUserModal } from "./AddUserModal";

/** The administrator vouches for the age of a member they add (decision 0043): the ID and its birth date. */

const created = member({
  id: "00000000-0000-4000-8000-000000000009",
  userID: "newuser01",
  name: "新規 太郎",
  email: "new@example.jp",
  gender: "male",
  birthday: "1990-01-15",
  createdAt: new Date("2026-11-28T00:00:00Z"),
});

function setup() {
  return renderWithProviders(<AddUserModal opened onClose={() => {}} onCreated={() => {}} />, {
    "auth.uniqueGenerate": () => ({ userID: "newuser01", password: "pass-word-1" }),
    "adminUsers.create": () => created,
  });
}

const creates = (calls: { path: string; input: unknown }[]) => calls.filter((c) => c.path === "adminUsers.create");

describe("AddUserModal asks how the age was checked", () => {
  it("requires the ID's kind and the birth date, refuses under 18, then sends them as ageCheck", async () => {
    const { calls } = setup();
    const dialog = await screen.findByRole("dialog", { name: "ユーザーを追加" });
    await within(dialog).findByText("newuser01");
    await userEvent.type(within(dialog).getByLabelText(/^名前/), "新規 太郎");
    await userEvent.type(within(dialog).getByLabelText(/メールアドレス/), "new@example.jp");
    await userEvent.click(within(dialog).getByRole("button", { name: "登録する" }));
    expect(await within(dialog).findByText(MSG.idDocumentKindRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(MSG.idBirthdayRequired)).toBeInTheDocument();
    expect(creates(calls)).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole("combobox", { name: /確認した身分証/ }));
    await userEvent.click(
      within(await screen.findByRole("listbox", { name: /確認した身分証/, hidden: true })).getByRole("option", {
        name: "パスポート",
        hidden: true,
      }),
    );
    const birthday = within(dialog).getByLabelText(/身分証の生年月日/);
    const minor = new Date();
    minor.setFullYear(minor.getFullYear() - 17);
    await userEvent.type(birthday, `${minor.getFullYear()}/${minor.getMonth() + 1}/${minor.getDate()}`);
    await userEvent.click(within(dialog).getByRole("button", { name: "登録する" }));
    expect(await within(dialog).findByText(MSG.idBirthdayUnderAge)).toBeInTheDocument();
    expect(creates(calls)).toHaveLength(0);

    await userEvent.clear(birthday);
    await userEvent.type(birthday, "1990年1月15日");
    await userEvent.click(within(dialog).getByRole("button", { name: "登録する" }));
    await waitFor(() => expect(creates(calls)).toHaveLength(1));
    expect(creates(calls)[0]?.input).toMatchObject({
      userID: "newuser01",
      name: "新規 太郎",
      ageCheck: { documentKind: "passport", birthday: "1990-01-15" },
    });
    expect(await screen.findByTestId("created-userid")).toHaveTextContent("newuser01");
  }, 30_000);
});
