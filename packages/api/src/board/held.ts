import { type Db, users } from "@enmusubi/db";
import { eq } from "drizzle-orm";
import { type PublicProfile, selectPublicProfiles, toPublicProfile } from "../members/public-profile";
import { ownHeldPosts } from "../screening/holds";
import type { BoardPost } from "./model";

/*
 * The author's own posts a screening rule held (decision 0042), in the board's member shape with
 * `status: "held"`: the screen shows them 「確認中」 among the author's posts. Nobody else sees them.
 */

export type OwnPost = BoardPost & { status: "published" | "held" };

async function ownProfile(db: Db, authorId: string): Promise<PublicProfile | null> {
  const [row] = await selectPublicProfiles(db, eq(users.id, authorId), { includeSuspended: true });
  return row ? toPublicProfile(row) : null;
}

const asPost = (
  author: PublicProfile | null,
  p: { id: string; title: string; content: string; createdAt: Date },
): OwnPost => ({
  id: p.id,
  title: p.title,
  content: p.content,
  createdAt: p.createdAt,
  author,
  byOperator: false,
  readerCount: 0,
  likeCount: 0,
  dislikeCount: 0,
  myReaction: null,
  isRead: false,
  isMine: true,
  status: "held",
});

/** A post just held, as its author sees it. */
export async function heldView(
  db: Db,
  authorId: string,
  post: { id: string; title: string; content: string; createdAt: Date },
): Promise<OwnPost> {
  return asPost(await ownProfile(db, authorId), post);
}

/** The author's posts waiting for review, newest first. */
export async function heldPostsOf(db: Db, authorId: string): Promise<OwnPost[]> {
  const held = await ownHeldPosts(db, authorId);
  if (held.length === 0) return [];
  const author = await ownProfile(db, authorId);
  return held
    .reverse()
    .map((h) => asPost(author, { id: h.id, title: h.title ?? "", content: h.body, createdAt: h.createdAt }));
}
