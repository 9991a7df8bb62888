import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { member } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { BATCH_CHUNK, BatchSendModal } from "./BatchSendModal";

const listed = (i: number) =>
  member({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    userID: `m${i}`,
    name: `会員${i}`,
    email: `m${i}@example.jp`,
    gender: "male",
    points: 0,
    sendPoints: 0,
  });

const MEMBERS = 45;
const list = () => ({
  users: Array.from({ length: MEMBERS }, (_, i) => listed(i)),
  total: MEMBERS,
  totalEstimated: false,
  totalCapped: false,
  allUsers: MEMBERS,
  allUsersEstimated: false,
  page: 1,
  pageSize: 200,
  totalPages: 1,
});

describe("BatchSendModal (decision 0036)", { timeout: 30_000 }, () => {
  it("asks first, naming the recipients, then sends in parts and says how far it is", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sent: number[] = [];
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <BatchSendModal opened onClose={() => {}} source="admin:sent" />
      </>,
      {
        "adminUsers.list": list,
        "adminMessages.send": async (input) => {
          sent.push(input.recipientIds.length);
          // The second part waits, so the progress of a long run can be seen.
          if (sent.length === 2) await gate;
          return { sent: input.recipientIds.length } as never;
        },
      },
    );
    await screen.findByLabelText("会員44（m44）");
    await userEvent.click(screen.getByRole("button", { name: "全て選択" }));
    await userEvent.type(screen.getByLabelText("メッセージ"), "お知らせです");
    await userEvent.click(screen.getByRole("button", { name: "送信" }));
    // Nothing is sent before the answer.
    const dialog = await screen.findByRole("dialog", { name: "一括送信の確認" });
    expect(within(dialog).getByText("45人のユーザーにメッセージを送信しますか？")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminMessages.send")).toEqual([]);
    await userEvent.click(within(dialog).getByRole("button", { name: "送信する" }));
    expect(await screen.findByText(`送信中: ${BATCH_CHUNK} / 45人`)).toBeInTheDocument();
    release();
    expect(await screen.findByText("45人のユーザーにメッセージを送信しました")).toBeInTheDocument();
    expect(sent).toEqual([20, 20, 5]);
  });

  it("sends nothing when the question is cancelled", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <BatchSendModal opened onClose={() => {}} source="admin:sent" />
      </>,
      {
        "adminUsers.list": list,
        "adminMessages.send": async (input) => ({ sent: input.recipientIds.length }) as never,
      },
    );
    await screen.findByLabelText("会員1（m1）");
    await userEvent.click(screen.getByLabelText("会員1（m1）"));
    await userEvent.type(screen.getByLabelText("メッセージ"), "x");
    await userEvent.click(screen.getByRole("button", { name: "送信" }));
    const dialog = await screen.findByRole("dialog", { name: "一括送信の確認" });
    expect(within(dialog).getByText("1人のユーザーにメッセージを送信しますか？")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "キャンセル" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "一括送信の確認" })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === "adminMessages.send")).toEqual([]);
  });
});
