import { MSG } from "@enmusubi/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../../test/render";
import { ComposeDialog } from "./ComposeDialog";
import { insertAt } from "./emojis";
import { MessageCard } from "./MessageCard";
import { scheduleApplies } from "./schedule";

describe("insertAt", () => {
  it("inserts at the caret and replaces a selection", () => {
    expect(insertAt("abcd", "😀", 2, 2)).toEqual({ text: "ab😀cd", caret: 4 });
    expect(insertAt("abcd", "😀", 1, 3)).toEqual({ text: "a😀d", caret: 3 });
    expect(insertAt("", "😀", 5, 9)).toEqual({ text: "😀", caret: 2 });
  });
});

describe("scheduleApplies", () => {
  it("applies only when ticked and in the future", () => {
    const now = new Date("2030-01-01T10:00");
    expect(scheduleApplies({ enabled: true, at: "2030-01-01T11:00" }, now)).toBe(true);
    expect(scheduleApplies({ enabled: true, at: "2030-01-01T09:00" }, now)).toBe(false);
    expect(scheduleApplies({ enabled: false, at: "2030-01-01T11:00" }, now)).toBe(false);
    expect(scheduleApplies({ enabled: true, at: "" }, now)).toBe(false);
  });
});

describe("MessageCard", () => {
  it("shows the body as text, the sender's named photo, and opens the detail", async () => {
    const onOpen = vi.fn();
    renderWithProviders(
      <MessageCard
        message={{ id: "1", body: "<b>こんにちは</b>", createdAt: new Date(), isRead: false, hasReply: false }}
        party={{ id: "u", name: "花子", photoLink: null, role: "user" }}
        partyLabel="差出人"
        highlightUnread
        onOpen={onOpen}
      />,
    );
    expect(screen.getByText("<b>こんにちは</b>")).toBeInTheDocument();
    expect(screen.getByText("未読")).toBeInTheDocument();
    await userEvent.click(screen.getByText("<b>こんにちは</b>"));
    expect(onOpen).toHaveBeenCalled();
  });
});

describe("ComposeDialog", () => {
  it("disables sending while blank, inserts emojis and submits the text", async () => {
    const onSubmit = vi.fn(async () => true);
    renderWithProviders(<ComposeDialog opened onClose={() => {}} title="返信" onSubmit={onSubmit} />);
    const send = await screen.findByRole("button", { name: "送信" });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText("メッセージ"), "やあ");
    await userEvent.click(screen.getByRole("button", { name: "絵文字" }));
    expect(screen.getAllByRole("button", { name: /^絵文字 .* を挿入$/ })).toHaveLength(60);
    await userEvent.click(screen.getByRole("button", { name: "絵文字 😀 を挿入" }));
    await waitFor(() => expect(screen.getByLabelText("メッセージ")).toHaveValue("やあ😀"));
    await userEvent.click(screen.getByRole("button", { name: "送信" }));
    expect(onSubmit).toHaveBeenCalledWith({ body: "やあ😀", scheduledAt: null });
  });

  it("reads 予約 when a future time is chosen", async () => {
    renderWithProviders(<ComposeDialog opened onClose={() => {}} title="返信" onSubmit={async () => true} />);
    await userEvent.click(await screen.findByLabelText("予約送信する"));
    expect(screen.getByRole("button", { name: "予約" })).toBeInTheDocument();
    expect(MSG.messageRequired).toBe("メッセージを入力してください");
  });
});
