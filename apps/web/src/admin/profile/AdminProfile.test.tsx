import { MSG } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { me } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { AdminProfile } from "./AdminProfile";

const admin = me({
  id: "a1",
  userID: "admin",
  name: "運営 管理者",
  email: "admin@example.jp",
  role: "admin",
  points: 0,
  sendPoints: 0,
  photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
  photoUrl: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg?exp=1900000000&sig=test",
});

function setup() {
  return renderWithProviders(<AdminProfile />, {
    "profile.me": () => admin,
    "profile.removePhoto": () => {
      throw new Error("storage unavailable");
    },
    "profile.update": ({ name, photoLink }) => ({
      user: { ...admin, ...(name !== undefined && { name }), ...(photoLink !== undefined && { photoLink }) },
      token: undefined,
      submitted: { photo: false, introduction: false },
    }),
  });
}

async function removePhotoAndSave(name: string) {
  await userEvent.click(await screen.findByRole("button", { name: "プロフィールを編集" }));
  const dialog = await screen.findByRole("dialog", { name: "プロフィールを編集" });
  await userEvent.clear(within(dialog).getByLabelText(/名前/));
  await userEvent.type(within(dialog).getByLabelText(/名前/), name);
  await userEvent.click(within(dialog).getByRole("button", { name: "写真を削除" }));
  await userEvent.click(within(dialog).getByRole("button", { name: "保存する" }));
  return screen.findByRole("dialog", { name: MSG.photoRemoveFailed });
}

describe("AdminProfile (spec §8 Profile: a photo failure asks whether to continue)", () => {
  it("saves the rest when the admin chooses to continue", async () => {
    const { calls } = setup();
    const question = await removePhotoAndSave("新しい 名前");
    expect(question).toHaveTextContent(MSG.photoContinueQuestion);
    await userEvent.click(within(question).getByRole("button", { name: MSG.photoContinueLabel }));
    await waitFor(() => expect(calls.some((c) => c.path === "profile.update")).toBe(true));
    expect(calls.find((c) => c.path === "profile.update")?.input).toMatchObject({ name: "新しい 名前" });
  });

  it("saves nothing when the admin declines", async () => {
    const { calls } = setup();
    const question = await removePhotoAndSave("新しい 名前");
    await userEvent.click(within(question).getByRole("button", { name: "キャンセル" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: MSG.photoRemoveFailed })).not.toBeInTheDocument());
    expect(calls.some((c) => c.path === "profile.update")).toBe(false);
    // The edit dialog stays open with the changes, without an error of its own.
    expect(screen.getByRole("dialog", { name: "プロフィールを編集" })).toBeInTheDocument();
  });

  it("shows the name error on the name field, announced", async () => {
    setup();
    await userEvent.click(await screen.findByRole("button", { name: "プロフィールを編集" }));
    const dialog = await screen.findByRole("dialog", { name: "プロフィールを編集" });
    const name = within(dialog).getByLabelText(/名前/);
    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole("button", { name: "保存する" }));
    const error = await within(dialog).findByText(MSG.nameRequired);
    expect(error).toHaveAttribute("role", "alert");
    expect(name.getAttribute("aria-describedby")).toContain(error.id);
  });
});
