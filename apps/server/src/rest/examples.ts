import { MSG } from "@enmusubi/shared";
import type { z } from "zod";
import type { legacyUser, ownLegacyUser } from "./legacy-shapes";

/**
 * Example answers shown on the reference page (/api/docs). Each route's example is typed against
 * its response schema, and the contract tests validate every example against the published
 * document, so they cannot drift from what the routes answer.
 */

export const EXAMPLE_TOKEN =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjZjNmE0ZS0xYjJkLTRjOWUtOGE3Zi0wZDFlMmYzYTRiNWMiLCJyb2xlIjoidXNlciIsInR2IjowfQ.c2lnbmF0dXJl";

export const EXAMPLE_OCCUPATION = { _id: "6a1f0c52-8d3e-4b7a-9c21-5e4f3a2b1c0d", occupaionName: "会社員" };
export const EXAMPLE_ANNUAL_INCOME = { _id: "0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b", annualIncome: "400万円〜600万円" };

export const EXAMPLE_USER: z.input<typeof legacyUser> = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  userID: "k3x9m2pq",
  name: "山田花子",
  email: "hanako@example.jp",
  role: "user",
  gender: "female",
  points: 100,
  sendPoints: 20,
  photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
  birthday: "1995-04-01",
  address: "東京都",
  occupation: EXAMPLE_OCCUPATION,
  annual_income: EXAMPLE_ANNUAL_INCOME,
  createdAt: "2025-08-20T01:23:45.000Z",
};

/** The signed-in account's own view (GET /api/auth/me) also lists its favourites; its photoLink is the thumbnail. */
export const EXAMPLE_OWN_USER: z.input<typeof ownLegacyUser> = {
  ...EXAMPLE_USER,
  photoLink: "/uploads/thumbs/0123456789abcdef0123456789abcdef.jpg",
  photoUrl:
    "/uploads/photos/0123456789abcdef0123456789abcdef.jpg?exp=1756258800&sig=3q2-7wBd6kWm0Yl1Ff0c4o9R5pXbZ2uQeS8vT1yNaHc",
  favoriteUserIds: ["9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4"],
  selfIntroduction: "はじめまして。週末はカフェ巡りをしています。",
};

export const EXAMPLE_POINT_COST = {
  actionName: "message_board_view",
  displayName: "掲示板閲覧",
  pointCost: 10,
  description: "掲示板を開いたときに消費されます。",
  maxCost: 10,
  offered: true,
};

/**
 * A member's text refused by a screening rule (decision 0042): 400 naming the kind of content.
 * Listed among the errors of every row that takes a member's message, post or profile text.
 */
export const SCREENING_REFUSALS = [
  MSG.screeningRefusedContact,
  MSG.screeningRefusedSolicitation,
  MSG.screeningRefusedMinors,
  MSG.screeningRefusedExternal,
  MSG.screeningRefusedOther,
] as const;
