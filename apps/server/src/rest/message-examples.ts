import { MSG } from "@enmusubi/shared";
import type { z } from "zod";
import type { legacyAdminMessage, legacyMessage, sent } from "./message-shapes";

/*
 * Example answers of the legacy message rows (messages.ts) on the reference page, typed against
 * their shapes (message-shapes.ts); the contract tests validate each against the published document.
 */

const EXAMPLE_MEMBER_A = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  name: "山田花子",
  photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
  role: "user" as const,
};
const EXAMPLE_MEMBER_B = {
  _id: "9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4",
  name: "佐藤太郎",
  photoLink: null,
  role: "user" as const,
};
export const EXAMPLE_MESSAGE = {
  _id: "5b0e2c1a-7d3f-4e8b-9a6c-2f1d0e9c8b7a",
  body: "はじめまして。プロフィールを拝見しました。",
  created_at: "2025-08-21T09:30:00.000Z",
  is_read: false,
  has_reply: false,
  from_userID: EXAMPLE_MEMBER_B,
  to_userID: EXAMPLE_MEMBER_A,
  locked: false,
  sealed: false,
  preview: null,
} satisfies z.input<typeof legacyMessage>;
export const EXAMPLE_SEALED = {
  ...EXAMPLE_MESSAGE,
  body: "はじめまして。プロフィールを拝見しました…",
  sealed: true,
  preview: "はじめまして。プロフィールを拝見しました…",
} satisfies z.input<typeof legacyMessage>;
export const EXAMPLE_PAGINATION = { total: 1, totalPages: 1, pages: 1, currentPage: 1, limit: 20 };
const { locked: _memberOnly, sealed: _sealed, preview: _preview, ...EXAMPLE_BASE } = EXAMPLE_MESSAGE;
export const EXAMPLE_ADMIN_MESSAGE = {
  ...EXAMPLE_BASE,
  from_userID: { ...EXAMPLE_MEMBER_B, userID: "p7w2k9zd", email: "taro@example.jp" },
  to_userID: { ...EXAMPLE_MEMBER_A, userID: "k3x9m2pq", email: "hanako@example.jp" },
  sent_by_admin: { _id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", name: "運営" },
} satisfies z.input<typeof legacyAdminMessage>;
export const EXAMPLE_SENT = {
  success: true as const,
  message: MSG.messageSent,
  messageIds: [EXAMPLE_MESSAGE._id],
  status: "sent" as const,
  sent: 1,
  cost: 48,
  remainingPoints: 52,
} satisfies z.input<typeof sent>;
