import { type Db, users } from "@enmusubi/db";
import { type LastActiveBucket, lastActiveBucket } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import type { PublicProfile } from "./public-profile";

/**
 * The paid profile detail (members.viewProfile): the public profile plus what only the
 * detail shows, the member's 自己紹介 and when they were last active, as a bucket (「24時間以内」
 * … 「1ヶ月以上」, packages/shared last-active.ts) computed here, so the exact time never leaves the
 * server (decision 0029). Search cards, favourites, footprints and the board keep PublicProfile.
 */
export type ProfileDetail = PublicProfile & {
  /** The member's own words, line breaks kept ("" when they wrote none). */
  selfIntroduction: string;
  lastActive: LastActiveBucket;
};

export async function toProfileDetail(db: Db, profile: PublicProfile, now = new Date()): Promise<ProfileDetail> {
  const [row] = await db
    .select({ selfIntroduction: users.selfIntroduction, lastActiveAt: users.lastActiveAt })
    .from(users)
    .where(eq(users.id, profile.id));
  return {
    ...profile,
    selfIntroduction: row?.selfIntroduction ?? "",
    lastActive: lastActiveBucket(row?.lastActiveAt ?? profile.createdAt, now),
  };
}
