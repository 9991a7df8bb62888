import { BOARD_PAGE_SIZE } from "@enmusubi/shared";
import type { z } from "zod";
import type { adminPost, legacyPost } from "./board-shapes";
import { EXAMPLE_ANNUAL_INCOME, EXAMPLE_OCCUPATION } from "./examples";
import type { legacyPublicProfile } from "./members";

/*
 * Example answers of the legacy board rows (board.ts) on the reference page, typed against their
 * shapes (board-shapes.ts); the contract tests validate each against the published document.
 */

type Profile = z.input<typeof legacyPublicProfile>;

const EXAMPLE_PROFILE: Profile = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  name: "山田花子",
  photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
  gender: "female",
  age: 30,
  address: "東京都",
  occupation: EXAMPLE_OCCUPATION,
  annual_income: EXAMPLE_ANNUAL_INCOME,
  createdAt: "2025-08-20T01:23:45.000Z",
  verified: true,
};
export const EXAMPLE_READER: Profile = {
  ...EXAMPLE_PROFILE,
  _id: "9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4",
  name: "佐藤太郎",
  gender: "male",
  photoLink: null,
  occupation: null,
  annual_income: null,
};
export const EXAMPLE_POST: z.input<typeof legacyPost> = {
  _id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
  userID: EXAMPLE_PROFILE,
  title: "週末に食事しませんか",
  content: "東京で食事しませんか。和食が好きです。",
  created_at: "2025-08-21T09:30:00.000Z",
  readerCount: 1,
  likeCount: 1,
  dislikeCount: 0,
  byOperator: false,
  likes: [EXAMPLE_READER],
  dislikes: [],
  readBy: [EXAMPLE_READER],
  myReaction: null,
  isRead: false,
  isMine: false,
};
export const EXAMPLE_PAGINATION = {
  limit: BOARD_PAGE_SIZE,
  currentPage: 1,
  totalPages: 1,
  totalPosts: 1,
  hasNextPage: false,
  hasPrevPage: false,
  totalIsLowerBound: false,
};
export const EXAMPLE_ADMIN_POST: z.input<typeof adminPost> = {
  _id: EXAMPLE_POST._id,
  userID: { ...EXAMPLE_PROFILE, userID: "k3x9m2pq" },
  operator: null,
  title: EXAMPLE_POST.title,
  content: EXAMPLE_POST.content,
  created_at: EXAMPLE_POST.created_at,
  readerCount: 1,
  likeCount: 1,
  dislikeCount: 0,
  byOperator: false,
};
