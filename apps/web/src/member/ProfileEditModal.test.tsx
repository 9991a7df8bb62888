import { MSG } from "@enmusubi/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { me } from "../test/fixtures";
import { renderWithProviders } from "../test/render";
import { ProfileEditModal } from "./ProfileEditModal";

const user = me({
  id: "u1",
  userID: "hanako1",
  name: "山田 花子",
  email: "h@example.jp",
  gender: "female",
  birthday: "1990-06-15",
});

function setup() {
  const onClose = vi.fn();
  const rendered = renderWithProviders(<ProfileEditModal user={user} opened onClose={onClose} />, {
    "reference.occupations.list": () => [],
    "reference.annualIncomes.list": () => [],
    "profile.update": () => ({ user, token: undefined, submitted: { photo: false, introduction: false } }),
  });
  return { ...rendered, onClose };
}

const updates = (calls: { path: string; input: unknown }[]) => calls.filter((c) => c.path === "profile.update");

describe("ProfileEditModal birthday", () => {
  it("shows the birthday in Japanese and sends a typed Japanese date as YYYY-MM-DD", async () => {
    const { calls } = setup();
    const birthday = await screen.findByLabelText("生年月日");
    expect(birthday).toHaveValue("1990年6月15日");
    await userEvent.clear(birthday);
    await userEvent.type(birthday, "1995年4月1日");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.input).toMatchObject({ name: "山田 花子", birthday: "1995-04-01" });
  });

  it("keeps the 18+ rule: a typed birthday under 18 is refused with the catalogue's message", async () => {
    const { calls } = setup();
    const birthday = await screen.findByLabelText("生年月日");
    const minor = new Date();
    minor.setFullYear(minor.getFullYear() - 17);
    await userEvent.clear(birthday);
    await userEvent.type(birthday, `${minor.getFullYear()}/${minor.getMonth() + 1}/${minor.getDate()}`);
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    const error = await screen.findByText(MSG.underAge);
    // Announced, and tied to the field.
    expect(error).toHaveAttribute("role", "alert");
    expect(birthday).toHaveAttribute("aria-invalid", "true");
    expect(birthday.getAttribute("aria-describedby")).toContain(error.id);
    expect(updates(calls)).toHaveLength(0);
  });

  // The calendar itself (Japanese, 日曜始まり, days under 18 disabled) is checked in the browser test.
});

describe("ProfileEditModal 自己紹介", () => {
  it("edits the 自己紹介 with a character count and sends it with the profile", async () => {
    const { calls } = setup();
    const intro = await screen.findByLabelText("自己紹介");
    expect(screen.getByText(/0 \/ 1,000文字/)).toBeInTheDocument();
    await userEvent.type(intro, "映画が好きです。{enter}よろしく");
    expect(screen.getByText(/13 \/ 1,000文字/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.input).toMatchObject({ selfIntroduction: "映画が好きです。\nよろしく" });
  });

  it("refuses more than 1,000 characters with the catalogue's message and sends nothing", async () => {
    const { calls } = renderWithProviders(
      <ProfileEditModal user={{ ...user, selfIntroduction: "あ".repeat(1001) }} opened onClose={vi.fn()} />,
      {
        "reference.occupations.list": () => [],
        "reference.annualIncomes.list": () => [],
        "profile.update": () => ({ user, token: undefined, submitted: { photo: false, introduction: false } }),
      },
    );
    await screen.findByLabelText("自己紹介");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.selfIntroductionTooLong)).toBeInTheDocument();
    expect(updates(calls)).toHaveLength(0);
  });
});

describe("ProfileEditModal nickname (decision 0043)", () => {
  it("labels the name ニックネーム with the advice not to use a real name; REST and tRPC keep `name`", async () => {
    const { calls } = setup();
    const nickname = await screen.findByLabelText(/ニックネーム/);
    expect(nickname).toHaveValue("山田 花子");
    expect(screen.getByText(MSG.nicknameAdvice)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^名前/)).not.toBeInTheDocument();
    await userEvent.clear(nickname);
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    expect(await screen.findByText(MSG.nicknameRequired)).toBeInTheDocument();
    expect(updates(calls)).toHaveLength(0);
    await userEvent.type(nickname, "はなこ");
    await userEvent.click(screen.getByRole("button", { name: "保存する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]?.input).toMatchObject({ name: "はなこ" });
  });
});
