/**
 * The conversations part of `pnpm bench` (BENCH_ONLY=messages runs it with the other message lists;
 * decision 0030): GET /api/messages/conversations (the busy member, a typical one, a name
 * search) and GET /api/messages/with/{userId} (the newest page and a page 250 messages back) are
 * timed at 10,000 and at BENCH_MESSAGES messages, and the statements behind them are printed with
 * EXPLAIN (ANALYZE, BUFFERS) at both sizes, to show they read the conversations index and the
 * messages pair index, not the table.
 */
import { type App, query } from "../lib/target";
import { explain } from "./context";

/** Messages of the one long conversation (the busy member bm0000001 and bm0000002). */
export const LONG_CONVERSATION = 300;

const idOf = async (app: App, userID: string) =>
  (await query<{ id: string }>(app, `select id::text as id from users where user_id = '${userID}'`))[0]?.id ?? "";

/**
 * A long conversation between `a` and `b` (login IDs): LONG_CONVERSATION messages both ways, half
 * read, spread over the oldest part of the timeline (among the first messages seeded), so at the
 * full size it lies under everything seeded later.
 */
export async function seedLongConversation(app: App, a: string, b: string, total: number): Promise<void> {
  const [x, y] = [await idOf(app, a), await idOf(app, b)];
  await query(
    app,
    `insert into messages (from_user_id, to_user_id, body, is_read, created_at)
     select case when g % 2 = 0 then '${x}'::uuid else '${y}'::uuid end,
            case when g % 2 = 0 then '${y}'::uuid else '${x}'::uuid end,
            'やりとりのベンチ ' || g || ' 通目です。', g % 2 = 0, now() - (${total} - g * 7) * interval '1 second'
     from generate_series(1, ${LONG_CONVERSATION}) g`,
  );
  await query(app, "analyze conversations");
}

interface Call {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** Rows the first answer must hold at least. */
  min: number;
  rows(body: unknown): number;
}

/** The timed calls: the list for the busy and a typical member, a name search, two pages of the long conversation. */
export async function conversationCalls(
  app: App,
  busy: Record<string, string>,
  typical: Record<string, string>,
  partner: string,
): Promise<Call[]> {
  const partnerId = await idOf(app, partner);
  const list = (body: unknown) => (body as { conversations: unknown[] }).conversations.length;
  const thread = (body: unknown) => (body as { messages: unknown[] }).messages.length;
  // The message 250 back from the newest of the long conversation: the cursor of a deep page.
  const [deep] = await query<{ id: string }>(
    app,
    `select m.id::text as id from messages m join users p on p.id = m.from_user_id or p.id = m.to_user_id
     where p.user_id = '${partner}' and m.body like 'やりとりのベンチ %'
     order by m.created_at desc, m.id desc offset 249 limit 1`,
  );
  return [
    {
      name: "GET /api/messages/conversations (busy member)",
      url: "/api/messages/conversations",
      headers: busy,
      min: 20,
      rows: list,
    },
    {
      name: "GET /api/messages/conversations (typical member)",
      url: "/api/messages/conversations",
      headers: typical,
      min: 1,
      rows: list,
    },
    {
      name: "GET /api/messages/conversations q=佐藤 (busy member)",
      url: `/api/messages/conversations?q=${encodeURIComponent("佐藤")}`,
      headers: busy,
      min: 1,
      rows: list,
    },
    {
      name: "GET /api/messages/with/{userId} newest page (long conversation)",
      url: `/api/messages/with/${partnerId}`,
      headers: busy,
      min: 30,
      rows: thread,
    },
    {
      name: "GET /api/messages/with/{userId} 250 back (long conversation)",
      url: `/api/messages/with/${partnerId}?before=${deep?.id}`,
      headers: busy,
      min: 30,
      rows: thread,
    },
  ];
}

/** The statements behind the two routes (messages/conversations.ts), written out with the values the service binds. */
export async function explainConversations(app: App, busy: string, partner: string): Promise<void> {
  const [me, other] = [await idOf(app, busy), await idOf(app, partner)];
  const unblocked = `not exists (select 1 from user_blocks b where (b.blocker_id = '${me}' and b.blocked_id = c.partner_id)
      or (b.blocker_id = c.partner_id and b.blocked_id = '${me}'))`;
  const mine = `c.member_id = '${me}' and ${unblocked}`;
  const pair = `least(m.from_user_id, m.to_user_id) = least('${me}'::uuid, '${other}'::uuid)
      and greatest(m.from_user_id, m.to_user_id) = greatest('${me}'::uuid, '${other}'::uuid) and m.deleted_at is null`;
  const [cursor] = await query<{ at: string; id: string }>(
    app,
    `select m.created_at::text as at, m.id::text as id from messages m where ${pair}
     order by m.created_at desc, m.id desc offset 249 limit 1`,
  );
  const statements: Array<[string, string]> = [
    [
      "conversations page 1 (busy member)",
      `select c.last_message_id, c.unread_count, p.id, p.name from conversations c join users p on p.id = c.partner_id
       where ${mine} order by c.last_at desc, c.partner_id desc limit 20`,
    ],
    [
      "conversations count (capped at 1,000)",
      `select count(*) from (select 1 from conversations c where ${mine} limit 1001) x`,
    ],
    [
      "conversations name search 佐藤 (page 1)",
      `select c.last_message_id from conversations c join users p on p.id = c.partner_id
       where ${mine} and exists (select 1 from users n where n.id = c.partner_id and n.name ilike '%佐藤%' offset 0)
       order by c.last_at desc, c.partner_id desc limit 20`,
    ],
    ["thread newest page", `select m.id from messages m where ${pair} order by m.created_at desc, m.id desc limit 31`],
    [
      "thread page 250 back (cursor)",
      `select m.id from messages m where ${pair} and (m.created_at, m.id) < ('${cursor?.at}'::timestamptz, '${cursor?.id}'::uuid)
       order by m.created_at desc, m.id desc limit 31`,
    ],
  ];
  await explain(app, statements);
}
