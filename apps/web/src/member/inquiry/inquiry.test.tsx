import { BANNER_MS, MSG } from "@enmusubi/shared";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { InquiryForm } from "./InquiryForm";
import { InquiryHistory } from "./InquiryHistory";

const author = { id: "u1", name: "太郎", userID: "taro01", email: "taro@example.jp" };
type Inquiry = RouterOutputs["inquiries"]["create"];

const inquiry = (over: Partial<Inquiry> = {}): Inquiry => ({
  id: "i1",
  title: "ポイントについて",
  message: "反映されません",
  isRead: true,
  replyUnread: true,
  createdAt: new Date("2025-08-21T09:30:00Z"),
  author,
  replies: [
    {
      id: "r1",
      reply: "反映いたしました",
      createdAt: new Date("2025-08-21T10:00:00Z"),
      admin: { id: "a1", name: "運営", userID: null },
    },
  ],
  ...over,
});
const page = (items: Inquiry[], unreadReplies = 0) => ({
  inquiries: items,
  total: items.length,
  totalCapped: false,
  page: 1,
  limit: 10,
  totalPages: 1,
  unreadReplies,
});

describe("InquiryForm", () => {
  it("says what is missing with the spec's エラー wording, without calling the server", async () => {
    const { calls } = renderWithProviders(<InquiryForm />, {});
    await userEvent.click(screen.getByRole("button", { name: "送信する" }));
    expect(screen.getByTestId("inquiry-status")).toHaveTextContent(MSG.inquiryTitleRequired);
    expect(screen.getByTestId("inquiry-status")).toHaveAttribute("role", "alert");
    expect(calls).toEqual([]);
  });

  it("sends the trimmed fields, shows the success and clears it after 3 s", async () => {
    const { calls } = renderWithProviders(<InquiryForm />, { "inquiries.create": () => inquiry() });
    await userEvent.type(screen.getByLabelText(/タイトル/), "  件名 ");
    await userEvent.type(screen.getByLabelText(/メッセージ/), "本文です");
    await userEvent.click(screen.getByRole("button", { name: "送信する" }));
    await waitFor(() => expect(screen.getByTestId("inquiry-status")).toHaveTextContent(MSG.inquirySent));
    expect(calls).toEqual([{ path: "inquiries.create", input: { title: "件名", message: "本文です" } }]);
    expect(screen.getByLabelText(/タイトル/)).toHaveValue("");
    await waitFor(() => expect(screen.getByTestId("inquiry-status")).toHaveTextContent(""), {
      timeout: BANNER_MS + 1000,
    });
  });

  it("a failure shows the spec's failure message", async () => {
    renderWithProviders(<InquiryForm />, {
      "inquiries.create": () => {
        throw new Error("down");
      },
    });
    await userEvent.type(screen.getByLabelText(/タイトル/), "件名");
    await userEvent.type(screen.getByLabelText(/メッセージ/), "本文");
    await userEvent.click(screen.getByRole("button", { name: "送信する" }));
    await waitFor(() => expect(screen.getByTestId("inquiry-status")).toHaveTextContent(MSG.inquirySendFailed));
  });
});

describe("InquiryHistory", () => {
  it("marks a new reply until it is opened, then tells the server it was seen", async () => {
    const { calls } = renderWithProviders(<InquiryHistory />, {
      "inquiries.list": () => page([inquiry()], 1),
      "inquiries.markRepliesSeen": () => ({ success: true }),
    });
    await screen.findByText("ポイントについて");
    expect(screen.getByTestId("reply-unread")).toHaveTextContent("新しい返信");
    expect(screen.getByText("未読の返信 1件")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "運営からの返信を見る（1件）" }));
    expect(screen.getByText("反映いたしました")).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "inquiries.markRepliesSeen")).toEqual([
        { path: "inquiries.markRepliesSeen", input: { id: "i1" } },
      ]),
    );
  });

  it("deletes only after confirmation", async () => {
    const { calls } = renderWithProviders(<InquiryHistory />, {
      "inquiries.list": () => page([inquiry({ replyUnread: false, replies: [] })]),
      "inquiries.delete": () => ({ success: true }),
    });
    await userEvent.click(await screen.findByRole("button", { name: "「ポイントについて」を削除" }));
    expect(await screen.findByText("この操作は取り消せません。")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "inquiries.delete")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "削除する" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === "inquiries.delete")).toEqual([
        { path: "inquiries.delete", input: { id: "i1" } },
      ]),
    );
  });

  it("a failed fetch shows an error with retry, and empty shows the empty state", async () => {
    let fail = true;
    renderWithProviders(<InquiryHistory />, {
      "inquiries.list": () => {
        if (fail) throw new Error("down");
        return page([]);
      },
    });
    expect(await screen.findByText(MSG.inquiryFetchFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("お問い合わせはまだありません")).toBeInTheDocument();
  });
});
