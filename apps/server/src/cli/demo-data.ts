import { createAccount, type PasswordHasher } from "@enmusubi/api";
import { annualIncomes, boardPosts, type Db, inquiries, messages, occupations, users } from "@enmusubi/db";
import { PREFECTURES, TERMS_VERSION } from "@enmusubi/shared";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";

/**
 * Demo content for trying the app: 24 members (demo01…demo24) sharing one known password, a few
 * messages between them, board posts and one inquiry. Deterministic (the same names, places,
 * occupations and balances every time) and idempotent: members are matched by userID and every
 * message, post and inquiry by its author and text, so a second run adds nothing.
 */

export const DEMO_PASSWORD = "demo1234";
export const DEMO_MEMBER_COUNT = 24;

const MALE_NAMES = [
  "佐藤 健太",
  "鈴木 翔太",
  "高橋 大輔",
  "田中 拓也",
  "伊藤 直樹",
  "渡辺 亮",
  "山本 和也",
  "中村 悠斗",
  "小林 誠",
  "加藤 雄一",
  "吉田 航",
  "山田 蓮",
];
const FEMALE_NAMES = [
  "佐々木 美咲",
  "山口 愛",
  "松本 彩花",
  "井上 優子",
  "木村 さくら",
  "林 由美",
  "斎藤 真由",
  "清水 結衣",
  "山崎 葵",
  "森 陽菜",
  "池田 麻衣",
  "橋本 奈々",
];

export interface DemoMember {
  userID: string;
  password: string;
  name: string;
  gender: "male" | "female";
  email: string;
  birthday: string;
  address: string;
  points: number;
  sendPoints: number;
}

/** The demo members as they are created. Ages stay between 20 and 45 whatever the date. */
export function demoMembers(today = new Date()): DemoMember[] {
  const year = today.getUTCFullYear();
  return Array.from({ length: DEMO_MEMBER_COUNT }, (_, i) => {
    const n = i + 1;
    const gender = i % 2 === 0 ? "male" : "female";
    const name = (gender === "male" ? MALE_NAMES : FEMALE_NAMES)[Math.floor(i / 2)] ?? `デモ ${n}`;
    // Born (year - 21 … year - 44): 20 to 44 years old depending on whether the birthday has passed.
    const age = 21 + ((i * 7) % 24);
    const month = ((i * 5) % 12) + 1;
    const day = ((i * 11) % 28) + 1;
    const userID = `demo${String(n).padStart(2, "0")}`;
    return {
      userID,
      password: DEMO_PASSWORD,
      name,
      gender,
      email: `${userID}@example.jp`,
      birthday: `${year - age}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
      address: PREFECTURES[i % PREFECTURES.length] ?? "東京都",
      points: 100 + ((i * 130) % 900),
      sendPoints: 20 + ((i * 15) % 80),
    };
  });
}

/** [from, to, body, reply to message index] between demo members (1-based numbers). */
const DEMO_MESSAGES: Array<[number, number, string, number?]> = [
  [
    1,
    2,
    "はじめまして、健太です。プロフィールを拝見して、同じく旅行が好きだと知り嬉しくなりました。よろしくお願いします！",
  ],
  [2, 1, "メッセージありがとうございます😊 最近は京都に行きました。健太さんはどちらがおすすめですか？", 0],
  [3, 4, "こんにちは！カフェ巡りが趣味とのことで、おすすめのお店があれば教えてください。"],
  [6, 5, "はじめまして。週末はよく映画を観ています。好きな作品は何ですか？"],
  [7, 8, "同じ神奈川県ですね！近くで食事でもいかがですか。"],
  [10, 9, "プロフィールの写真、素敵ですね。趣味のお話を聞かせてください。"],
  [11, 12, "はじめまして。料理が得意です。得意料理は肉じゃがです🍲"],
  [12, 11, "肉じゃが、いいですね！私はお菓子作りが好きです。", 6],
];

const DEMO_POSTS: Array<[number, string, string]> = [
  [1, "週末に一緒にカフェ巡りしませんか", "東京都内のおしゃれなカフェを巡るのが好きです。気軽にメッセージください☕"],
  [4, "映画好きの方いませんか？", "最近観た映画の感想を語り合える方を探しています。ジャンルは問いません。"],
  [5, "はじめまして", "登録したばかりです。福岡在住、アウトドアが好きです。よろしくお願いします！"],
  [8, "料理教室に興味がある方", "一緒に料理教室に通える方がいたら嬉しいです。初心者歓迎です🍳"],
];

const DEMO_INQUIRY = {
  member: 3,
  title: "ポイントの購入方法について",
  message: "銀行振込でポイントを購入したいのですが、反映までどのくらい時間がかかりますか？",
};

export interface DemoSeedResult {
  members: DemoMember[];
  /** userIDs created by this run (the others already existed). */
  created: string[];
  messages: number;
  posts: number;
  inquiries: number;
}

/**
 * Inserts whatever part of the demo content is missing, in one transaction. Balances are written
 * with their opening ledger rows, so every demo balance equals the sum of its ledger.
 */
export async function seedDemo(db: Db, passwords: PasswordHasher, today = new Date()): Promise<DemoSeedResult> {
  const members = demoMembers(today);
  const userIDs = members.map((m) => m.userID);
  const [existing, occupationRows, incomeRows] = await Promise.all([
    db.select({ userId: users.userId }).from(users).where(inArray(users.userId, userIDs)),
    db.select({ id: occupations.id }).from(occupations).orderBy(asc(occupations.sortOrder), asc(occupations.name)),
    db
      .select({ id: annualIncomes.id })
      .from(annualIncomes)
      .orderBy(asc(annualIncomes.sortOrder), asc(annualIncomes.label)),
  ]);
  const known = new Set(existing.map((r) => r.userId));
  const missing = members.filter((m) => !known.has(m.userID));
  // Hashed before the transaction: argon2 is slow on purpose and must not hold it open.
  const hashes = new Map<string, string>();
  for (const m of missing) hashes.set(m.userID, await passwords.hash(m.password));

  const result: DemoSeedResult = { members, created: [], messages: 0, posts: 0, inquiries: 0 };
  const baseTime = today.getTime();
  await db.transaction(async (tx) => {
    for (const [i, m] of members.entries()) {
      const hash = hashes.get(m.userID);
      if (!hash) continue;
      const id = await createAccount(
        tx,
        {
          userID: m.userID,
          name: m.name,
          email: m.email,
          passwordHash: hash,
          role: "user",
          gender: m.gender,
          points: m.points,
          sendPoints: m.sendPoints,
          birthday: m.birthday,
          address: m.address,
          occupationId: occupationRows[(i * 5) % Math.max(1, occupationRows.length)]?.id ?? null,
          annualIncomeId: incomeRows[(i * 3) % Math.max(1, incomeRows.length)]?.id ?? null,
          // demo24 newest: the admin list (newest first) shows them in order from the end.
          createdAt: new Date(baseTime - (DEMO_MEMBER_COUNT - i) * 60_000),
          // Demo members stand for people who have already shown an ID and accepted the terms.
          verificationStatus: "verified",
          termsVersion: TERMS_VERSION,
        },
        { ifAbsent: true },
      );
      if (!id) continue; // created concurrently by another run
      result.created.push(m.userID);
    }

    const ids = new Map(
      (
        await tx
          .select({ id: users.id, userId: users.userId })
          .from(users)
          .where(and(inArray(users.userId, userIDs), isNull(users.deletedAt)))
      ).map((r) => [r.userId, r.id]),
    );
    const idOf = (n: number) => ids.get(`demo${String(n).padStart(2, "0")}`);

    const messageIds: Array<string | undefined> = [];
    for (const [index, [from, to, body, replyTo]] of DEMO_MESSAGES.entries()) {
      const fromUserId = idOf(from);
      const toUserId = idOf(to);
      if (!fromUserId || !toUserId) {
        messageIds.push(undefined);
        continue;
      }
      const [found] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.fromUserId, fromUserId), eq(messages.toUserId, toUserId), eq(messages.body, body)));
      if (found) {
        messageIds.push(found.id);
        continue;
      }
      const replyToId = replyTo === undefined ? undefined : messageIds[replyTo];
      const [row] = await tx
        .insert(messages)
        .values({
          fromUserId,
          toUserId,
          body,
          replyToId,
          createdAt: new Date(baseTime - (DEMO_MESSAGES.length - index) * 10 * 60_000),
        })
        .returning({ id: messages.id });
      messageIds.push(row?.id);
      if (replyToId) {
        await tx
          .update(messages)
          .set({ hasReply: true, isRead: true, readAt: new Date(baseTime) })
          .where(eq(messages.id, replyToId));
      }
      result.messages += 1;
    }

    for (const [index, [author, title, content]] of DEMO_POSTS.entries()) {
      const authorId = idOf(author);
      if (!authorId) continue;
      const [found] = await tx
        .select({ id: boardPosts.id })
        .from(boardPosts)
        .where(and(eq(boardPosts.authorId, authorId), eq(boardPosts.title, title)));
      if (found) continue;
      await tx.insert(boardPosts).values({
        authorId,
        title,
        content,
        createdAt: new Date(baseTime - (DEMO_POSTS.length - index) * 60 * 60_000),
      });
      result.posts += 1;
    }

    const inquirer = idOf(DEMO_INQUIRY.member);
    if (inquirer) {
      const [found] = await tx
        .select({ id: inquiries.id })
        .from(inquiries)
        .where(and(eq(inquiries.userId, inquirer), eq(inquiries.title, DEMO_INQUIRY.title)));
      if (!found) {
        await tx
          .insert(inquiries)
          .values({ userId: inquirer, title: DEMO_INQUIRY.title, message: DEMO_INQUIRY.message });
        result.inquiries += 1;
      }
    }
  });
  return result;
}
