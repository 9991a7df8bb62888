import { MSG } from "@enmusubi/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import { InquiryList } from "./InquiryList";

const inquiry: RouterOutputs["adminInquiries"]["list"]["inquiries"][number] = {
  id: "i1",
  title: "退会について",
  message: "退会の方法を教えてください。",
  isRead: false,
  replyUnread: false,
  createdAt: new Date("2025-08-21T09:30:00Z"),
  author: { id: "u1", name: "花子", userID: "hanako01", email: "hanako@example.jp" },
  replies: [],
};
const answer: RouterOutputs["adminInquiries"]["list"] = {
  inquiries: [inquiry],
  total: 1,
  totalCapped: false,
  totalAll: 7,
  totalAllCapped: false,
  unread: 3,
  unreadCapped: false,
  page: 1,
  limit: 20,
  totalPages: 1,
};

describe("InquiryList (admin)", () => {
  it("a failed fetch shows an error with retry and never sample inquiries", async () => {
    let fail = true;
    renderWithProviders(<InquiryList />, {
      "adminInquiries.list": () => {
        if (fail) throw new Error("down");
        return answer;
      },
    });
    expect(await screen.findByText(MSG.inquiryFetchFailed)).toBeInTheDocument();
    expect(screen.queryAllByTestId("admin-inquiry-card")).toHaveLength(0);
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "再試行" }));
    expect(await screen.findByText("退会について")).toBeInTheDocument();
    expect(screen.getByTestId("inquiry-total")).toHaveTextContent("7件");
    expect(screen.getByTestId("inquiry-unread")).toHaveTextContent("3件");
  });

  it("says 1,000件以上 when the server stopped counting at its cap", async () => {
    renderWithProviders(<InquiryList />, {
      "adminInquiries.list": () => ({
        ...answer,
        totalAll: 1000,
        totalAllCapped: true,
        unread: 1000,
        unreadCapped: true,
      }),
    });
    expect(await screen.findByText("退会について")).toBeInTheDocument();
    expect(screen.getByTestId("inquiry-total")).toHaveTextContent("1,000件以上");
    expect(screen.getByTestId("inquiry-unread")).toHaveTextContent("1,000件以上");
  });

  it("marks read and replies through the modal (send disabled while blank)", async () => {
    const { calls } = renderWithProviders(<InquiryList />, {
      "adminInquiries.list": () => answer,
      "adminInquiries.markRead": () => ({ success: true }),
      "adminInquiries.reply": () => ({
        id: "r1",
        reply: "ご案内します",
        createdAt: new Date(),
        admin: { id: "a1", name: "運営", userID: "admin" },
      }),
    });
    const card = await screen.findByTestId("admin-inquiry-card");
    expect(within(card).getByText("投稿者: 花子（hanako01） ・", { exact: false })).toBeInTheDocument();
    await userEvent.click(within(card).getByRole("button", { name: "「退会について」を既読にする" }));
    await userEvent.click(within(card).getByRole("button", { name: "「退会について」に返信" }));
    const dialog = await screen.findByRole("dialog", { name: "お問い合わせへの返信" });
    const send = within(dialog).getByRole("button", { name: "返信を送信" });
    expect(send).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/返信内容/), "ご案内します");
    await userEvent.click(send);
    await waitFor(() =>
      expect(calls.filter((c) => c.path.startsWith("adminInquiries.") && c.path !== "adminInquiries.list")).toEqual([
        { path: "adminInquiries.markRead", input: { id: "i1" } },
        { path: "adminInquiries.reply", input: { id: "i1", reply: "ご案内します" } },
      ]),
    );
  });
});
