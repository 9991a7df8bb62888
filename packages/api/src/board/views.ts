import { annualIncomes, boardPosts, boardReactions, boardReads, type Db, occupations, users } from "@enmusubi/db";
import { and, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { anyId } from "../lists/any-id";
import { type PublicProfile, toPublicProfile } from "../members/public-profile";
import { notBlockedWith } from "../safety/blocks";
import { referenceColumns } from "../users/user-view";
import { type AdminBoardPost, BOARD_PEOPLE_MAX, type BoardPost, type Reaction, visibleTo } from "./model";

// Shaping posts for members and administrators.

/** Posts by id with their counts and their authors' public profile columns, in one statement. */
function selectPostRows(db: Db, ids: string[], viewerId: string | null) {
  const mine = viewerId ?? "00000000-0000-0000-0000-000000000000";
  return db
    .select({
      id: boardPosts.id,
      title: boardPosts.title,
      content: boardPosts.content,
      createdAt: boardPosts.createdAt,
      authorId: boardPosts.authorId,
      authorRole: users.role,
      authorDeletedAt: users.deletedAt,
      authorName: users.name,
      authorUserID: users.userId,
      authorPhotoLink: users.photoLink,
      authorGender: users.gender,
      authorBirthday: users.birthday,
      authorAddress: users.address,
      authorCreatedAt: users.createdAt,
      authorVerificationStatus: users.verificationStatus,
      ...referenceColumns,
      readerCount: sql<number>`(select count(*)::int from ${boardReads} where ${boardReads.postId} = ${boardPosts.id})`,
      likeCount: sql<number>`(select count(*)::int from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.kind} = 'like')`,
      dislikeCount: sql<number>`(select count(*)::int from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.kind} = 'dislike')`,
      myReaction: sql<Reaction | null>`(select ${boardReactions.kind} from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.userId} = ${mine})`,
      isRead: sql<boolean>`exists (select 1 from ${boardReads} where ${boardReads.postId} = ${boardPosts.id} and ${boardReads.userId} = ${mine})`,
    })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(anyId(boardPosts.id, ids))
    .orderBy(desc(boardPosts.createdAt), desc(boardPosts.id));
}

type PostRow = Awaited<ReturnType<typeof selectPostRows>>[number];

/** The author in the public shape: live members only (as selectPublicProfiles), never administrators. */
function authorProfile(r: PostRow): PublicProfile | null {
  if (r.authorRole !== "user" || r.authorDeletedAt !== null) return null;
  return toPublicProfile({
    id: r.authorId,
    name: r.authorName,
    photoLink: r.authorPhotoLink,
    gender: r.authorGender,
    birthday: r.authorBirthday,
    address: r.authorAddress,
    occupationId: r.occupationId,
    occupationName: r.occupationName,
    annualIncomeId: r.annualIncomeId,
    annualIncomeLabel: r.annualIncomeLabel,
    createdAt: r.authorCreatedAt,
    verificationStatus: r.authorVerificationStatus,
  });
}

/** Posts by id, in the member shape, newest first. */
export async function memberViews(db: Db, viewerId: string, ids: string[]): Promise<BoardPost[]> {
  if (ids.length === 0) return [];
  const rows = await selectPostRows(db, ids, viewerId);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    content: r.content,
    createdAt: r.createdAt,
    author: authorProfile(r),
    byOperator: r.authorRole === "admin",
    readerCount: Number(r.readerCount),
    likeCount: Number(r.likeCount),
    dislikeCount: Number(r.dislikeCount),
    myReaction: r.myReaction,
    isRead: Boolean(r.isRead),
    isMine: r.authorId === viewerId,
  }));
}

export async function adminViews(db: Db, ids: string[]): Promise<AdminBoardPost[]> {
  if (ids.length === 0) return [];
  const rows = await selectPostRows(db, ids, null);
  return rows.map((r) => {
    const profile = authorProfile(r);
    return {
      id: r.id,
      title: r.title,
      content: r.content,
      createdAt: r.createdAt,
      author: profile ? { ...profile, userID: r.authorUserID } : null,
      byOperator: r.authorRole === "admin",
      operator: r.authorRole === "admin" ? { id: r.authorId, name: r.authorName } : null,
      readerCount: Number(r.readerCount),
      likeCount: Number(r.likeCount),
      dislikeCount: Number(r.dislikeCount),
      myReaction: null,
      isRead: false,
      isMine: false,
    };
  });
}

/**
 * Who liked, disliked and read each post (the legacy likes / dislikes / readBy arrays): public
 * profiles of live members with no block either way with the viewer, the latest BOARD_PEOPLE_MAX
 * of each list. Posts the viewer cannot see are left out. One statement: the visible posts, each
 * list ranked in it, and the people's public profile columns.
 */
export async function postPeople(
  db: Db,
  viewerId: string,
  postIds: string[],
): Promise<Record<string, { likes: PublicProfile[]; dislikes: PublicProfile[]; readBy: PublicProfile[] }>> {
  if (postIds.length === 0) return {};
  const r = boardReactions;
  const reads = boardReads;
  const people = db
    .select({
      postId: r.postId,
      userId: r.userId,
      kind: sql<string>`${r.kind}::text`.as("kind"),
      rank: sql<number>`row_number() over (partition by ${r.postId}, ${r.kind} order by ${r.createdAt} desc, ${r.userId})`.as(
        "rank",
      ),
    })
    .from(r)
    .where(and(anyId(r.postId, postIds), notBlockedWith(viewerId, r.userId)))
    .unionAll(
      db
        .select({
          postId: reads.postId,
          userId: reads.userId,
          kind: sql<string>`'read'`.as("kind"),
          rank: sql<number>`row_number() over (partition by ${reads.postId} order by ${reads.createdAt} desc, ${reads.userId})`.as(
            "rank",
          ),
        })
        .from(reads)
        .where(and(anyId(reads.postId, postIds), notBlockedWith(viewerId, reads.userId))),
    )
    .as("people");
  const person = alias(users, "person");
  const personOccupation = alias(occupations, "person_occupation");
  const personIncome = alias(annualIncomes, "person_income");
  const rows = await db
    .select({
      postId: boardPosts.id,
      kind: people.kind,
      id: person.id,
      name: person.name,
      photoLink: person.photoLink,
      gender: person.gender,
      birthday: person.birthday,
      address: person.address,
      occupationId: personOccupation.id,
      occupationName: personOccupation.name,
      annualIncomeId: personIncome.id,
      annualIncomeLabel: personIncome.label,
      createdAt: person.createdAt,
      verificationStatus: person.verificationStatus,
    })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .leftJoin(people, and(eq(people.postId, boardPosts.id), lte(people.rank, BOARD_PEOPLE_MAX)))
    // Ranked before this check, as the lists always were: a deleted member among the latest is left out, not replaced.
    .leftJoin(
      person,
      and(eq(person.id, people.userId), isNull(person.deletedAt), isNull(person.suspendedAt), eq(person.role, "user")),
    )
    .leftJoin(personOccupation, eq(person.occupationId, personOccupation.id))
    .leftJoin(personIncome, eq(person.annualIncomeId, personIncome.id))
    .where(and(anyId(boardPosts.id, postIds), visibleTo(viewerId)))
    .orderBy(boardPosts.id, people.kind, people.rank);
  const out: Record<string, { likes: PublicProfile[]; dislikes: PublicProfile[]; readBy: PublicProfile[] }> = {};
  const keys = { like: "likes", dislike: "dislikes", read: "readBy" } as const;
  for (const row of rows) {
    let lists = out[row.postId];
    if (!lists) {
      lists = { likes: [], dislikes: [], readBy: [] };
      out[row.postId] = lists;
    }
    const key = keys[row.kind as keyof typeof keys];
    if (!key || row.id === null || row.gender === null || row.createdAt === null || row.verificationStatus === null)
      continue;
    lists[key].push(
      toPublicProfile({
        ...row,
        id: row.id,
        gender: row.gender,
        createdAt: row.createdAt,
        verificationStatus: row.verificationStatus,
      }),
    );
  }
  return out;
}
