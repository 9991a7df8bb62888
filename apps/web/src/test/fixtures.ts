import { OFFERED_ACTIONS } from "@enmusubi/shared";
import type { RouterOutputs } from "../lib/api-types";

/** Typed answers the tests build on: a fixture of the wrong shape does not compile. */

export type Me = RouterOutputs["profile"]["me"];
export type PublicProfile = RouterOutputs["members"]["favorites"][number];
export type BoardPost = RouterOutputs["board"]["list"]["posts"][number];
/** A post of 自分の投稿 (board.myPosts): published, or held for review (確認中). */
export type OwnPost = RouterOutputs["board"]["myPosts"]["posts"][number];
export type AdminBoardPost = RouterOutputs["adminBoard"]["list"]["posts"][number];
export type PointCost = RouterOutputs["reference"]["pointCosts"]["list"][number];

/** profile.me for a member (or, with `role: "admin"`, an administrator). */
export function me(extra: Partial<Me> = {}): Me {
  return {
    id: "me",
    userID: "taro0001",
    name: "太郎",
    email: "taro@example.com",
    role: "user",
    gender: "male",
    points: 100,
    sendPoints: 20,
    photoLink: null,
    photoUrl: null,
    birthday: null,
    address: null,
    occupation: null,
    annualIncome: null,
    createdAt: new Date("2026-01-01T00:00:00Z"),
    selfIntroduction: "",
    favoriteUserIds: [],
    review: { photo: null, introduction: null },
    ...extra,
  };
}

export type Member = RouterOutputs["adminUsers"]["list"]["users"][number];

/**
 * A member as the administrators see them (adminUsers.list, adminUsers.create…): by default 花子,
 * a member in good standing with 100 points.
 */
export function member(extra: Partial<Member> = {}): Member {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    userID: "hanako01",
    name: "花子",
    email: "hanako@example.jp",
    role: "user",
    gender: "female",
    points: 100,
    sendPoints: 20,
    photoLink: null,
    photoUrl: null,
    birthday: null,
    address: null,
    occupation: null,
    annualIncome: null,
    createdAt: new Date("2026-01-01T00:00:00Z"),
    suspended: false,
    phoneVerified: false,
    ...extra,
  };
}

/** A member as other members see them. */
export function publicProfile(extra: Partial<PublicProfile> & Pick<PublicProfile, "id">): PublicProfile {
  return {
    name: null,
    photoLink: null,
    gender: "female",
    age: null,
    prefecture: null,
    occupation: null,
    annualIncome: null,
    createdAt: new Date("2026-01-01T00:00:00Z"),
    verified: true,
    ...extra,
  };
}

export type ProfileDetail = RouterOutputs["members"]["viewProfile"]["profile"];

/** A member's paid profile detail: the public profile, 自己紹介 and the last-activity bucket. */
export function profileDetail(extra: Partial<ProfileDetail> & Pick<ProfileDetail, "id">): ProfileDetail {
  return { ...publicProfile(extra), selfIntroduction: "", lastActive: "24時間以内", ...extra };
}

/** One row of the point cost table. */
export function pointCost(actionName: string, cost: number, extra: Partial<PointCost> = {}): PointCost {
  return {
    actionName,
    displayName: actionName,
    pointCost: cost,
    description: "",
    maxCost: 1000,
    offered: OFFERED_ACTIONS.has(actionName),
    ...extra,
  };
}

/** A board page (board.list, board.myPosts, adminBoard.list) of the given posts. */
export function boardPage<P>(posts: P[], currentPage = 1, totalPages = 1) {
  return {
    posts,
    pagination: {
      currentPage,
      limit: 10,
      totalPages,
      totalPosts: totalPages > 1 ? totalPages * 10 : posts.length,
      hasNextPage: currentPage < totalPages,
      hasPrevPage: currentPage > 1,
      totalIsLowerBound: false,
    },
  };
}

/** verification.status in the given standing, never submitted. */
export function verificationStatus(
  status: RouterOutputs["verification"]["status"]["status"],
): RouterOutputs["verification"]["status"] {
  return { status, rejectReason: null, submittedAt: null, verifiedAt: null };
}
