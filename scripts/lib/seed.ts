import type { Db } from "@enmusubi/db";
import { PREFECTURES } from "@enmusubi/shared";
import { openBalancesInBulk } from "../../packages/api/src/points/ledger";
import { log } from "./stats";
import { type App, execute, query } from "./target";

/**
 * Seeding the benchmarks' members and messages, set-based. Members are created at 0 points and
 * their opening balances are then opened through the points module (openBalancesInBulk: balance,
 * `initial` ledger rows and free lots, decision 0008), never written into those tables here.
 */

/** Rows one INSERT … SELECT generate_series writes. */
const BATCH_SQL = 100_000;
/** The password of every member `seedMembers` creates (one precomputed hash). */
export const MEMBER_PASSWORD = "bench-pass-1234";

/** The login ID of bench member `i` (bm0000001…). */
export const memberId = (i: number) => `bm${String(i).padStart(7, "0")}`;

/**
 * Opens the balances of seeded members `from`..`to` (login IDs `<prefix>` + 7 digits, at 0 on both
 * accounts) through the points module, BATCH_SQL members a transaction; `balances(i)` gives member
 * i's opening points and send points.
 */
export async function openMemberBalances(
  db: Db,
  prefix: string,
  from: number,
  to: number,
  balances: (i: number) => { points: number; sendPoints: number },
): Promise<void> {
  const login = (i: number) => `${prefix}${String(i).padStart(7, "0")}`;
  // Statistics of the members just loaded: without them the planner takes users for a handful of
  // rows and joins the opening balances to it by reading them again per member (minutes instead
  // of seconds at 100,000 members), not by the primary key.
  await db.execute("analyze users");
  for (let start = from; start <= to; start += BATCH_SQL) {
    const end = Math.min(start + BATCH_SQL - 1, to);
    const members = await execute<{ id: string; i: number }>(
      db,
      `select id::text as id, substr(user_id, ${prefix.length + 1})::int as i from users
       where user_id between '${login(start)}' and '${login(end)}'`,
    );
    await openBalancesInBulk(
      db,
      members.map((m) => ({ userId: m.id, ...balances(m.i) })),
    );
  }
}

const SURNAMES = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田"];
const GIVEN_MALE = ["健太", "翔太", "大輔", "拓也", "直樹", "亮", "和也", "悠斗", "誠", "蓮"];
const GIVEN_FEMALE = ["美咲", "愛", "彩花", "優子", "さくら", "由美", "真由", "結衣", "葵", "陽菜"];
/** 自己紹介 of the bench members (one in five has one of these). */
const INTRO_TEXTS = [
  "はじめまして。週末はカフェ巡りをしています。",
  "映画と音楽が好きです。よろしくお願いします。",
  "料理が得意です。休日は公園を散歩します。",
  "ゆっくりお話しできる方を探しています。",
  "旅行が趣味で、温泉によく行きます。",
  "ねこと暮らしています。読書も好きです。",
];
const array = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(",")}]`;

/**
 * Members `from`..`to` of `total` (bm0000001…) in set-based INSERTs of BATCH_SQL rows, each with
 * its opening balances (100 to 599 points, 20 send points; openMemberBalances); one precomputed
 * password hash. Men and women alternate; a third have a photo; birthdays 1980–2004; prefectures in
 * turn; verified (they may send); one sign-up a second, newest last; last active within 30 days,
 * in an order unrelated to sign-up; one in five with a 自己紹介 of six kinds (one in thirty mention
 * カフェ, one in 5,000 鰻重). The users triggers (migration 0030) write their search text and grams.
 */
export async function seedMembers(app: App, from: number, to: number, total: number): Promise<void> {
  const db = app.database.db;
  const passwordHash = await app.deps.passwords.hash(MEMBER_PASSWORD);
  for (let start = from; start <= to; start += BATCH_SQL) {
    const end = Math.min(start + BATCH_SQL - 1, to);
    await query(
      app,
      `insert into users (user_id, name, email, password_hash, gender, points, send_points, birthday, address,
         photo_link, verification_status, created_at, last_active_at, self_introduction)
       select 'bm' || lpad(i::text, 7, '0'),
              (${array(SURNAMES)})[1 + i % ${SURNAMES.length}] || ' ' ||
                case when i % 2 = 0 then (${array(GIVEN_FEMALE)})[1 + (i / 2) % ${GIVEN_FEMALE.length}]
                     else (${array(GIVEN_MALE)})[1 + (i / 2) % ${GIVEN_MALE.length}] end,
              'bm' || lpad(i::text, 7, '0') || '@bench.example', '${passwordHash}',
              (case when i % 2 = 0 then 'female' else 'male' end)::gender,
              0, 0,
              make_date(1980 + i % 25, 1 + i % 12, 1 + i % 28),
              (${array(PREFECTURES)})[1 + i % ${PREFECTURES.length}],
              case when i % 3 = 0 then '/uploads/bench-' || i || '.jpg' end,
              'verified', now() - (${total + 1} - i) * interval '1 second',
              now() - ((i::bigint * 7919) % 2592000) * interval '1 second',
              case when i % 5 = 0 then (${array(INTRO_TEXTS)})[1 + (i / 10) % ${INTRO_TEXTS.length}]
                || case when i % 5000 = 0 then '好物は鰻重です。' else '' end else '' end
       from generate_series(${start}, ${end}) i`,
    );
    if (end % 200_000 === 0 && end < to) log(`  … ${end.toLocaleString("en")} members`);
  }
  await openMemberBalances(db, "bm", from, to, (i) => ({ points: 100 + (i % 500), sendPoints: 20 }));
  // Fresh statistics and visibility maps, as autovacuum would have left them on a live server: with
  // "analyze" alone, autovacuum starts on the new rows (16-odd million grams) while the calls are
  // timed, and index-only scans still visit the heap.
  await db.execute("vacuum analyze");
}

/** Rows one INSERT of messages writes. */
const MESSAGE_BATCH = 100_000;

/**
 * Messages `from`..`to` of `total` between the first `members` bench members in set-based
 * INSERTs: senders and recipients spread over the membership (about total / members each), one
 * in a hundred to the busy member bm0000001; a third read, one in seven replied; one a second,
 * newest last.
 */
export async function seedMessages(app: App, from: number, to: number, members: number, total: number): Promise<void> {
  const db = app.database.db;
  await db.execute(
    "create table bench_members as select id, row_number() over (order by user_id) as rn from users where user_id like 'bm%'",
  );
  await db.execute("create unique index on bench_members (rn)");
  for (let start = from; start <= to; start += MESSAGE_BATCH) {
    const end = Math.min(start + MESSAGE_BATCH - 1, to);
    await db.execute(
      `insert into messages (from_user_id, to_user_id, body, is_read, has_reply, created_at)
       select s.id, r.id,
              'ベンチのメッセージ ' || g || ' 番目です。' || (array['こんにちは','はじめまして','よろしくお願いします','お元気ですか'])[1 + g % 4],
              g % 3 = 0, g % 7 = 0, now() - (${total} - g) * interval '1 second'
       from generate_series(${start}, ${end}) g
       join bench_members s on s.rn = 2 + (g * 7919::bigint) % (${members} - 1)
       join bench_members r on r.rn = case when g % 100 = 0 then 1 else 1 + (g * 104729::bigint + 13) % ${members} end
       where s.id <> r.id`,
    );
    if (end % 200_000 === 0 && end < to) log(`  … ${end.toLocaleString("en")} messages`);
  }
  await db.execute("drop table bench_members");
  await db.execute("analyze messages");
}
