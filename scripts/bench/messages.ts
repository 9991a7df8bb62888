/**
 * The member mailbox and the administrators' message lists of `pnpm bench` (email management, its
 * search box: page, status, deep page, userID / body word / short keyword search, one day), and the
 * conversations (conversations.ts), timed at 10,000 messages and at BENCH_MESSAGES (1% of them to
 * one busy member); BENCH_EXPLAIN=1 prints the plans of the admin list's statements.
 */
import { japanDayOf, japanDayStart } from "@enmusubi/shared";
import { memberId } from "../lib/seed";
import { type App, query } from "../lib/target";
import { type Bench, explain, get, type Headers, type Phase, TARGETS, time } from "./context";
import { conversationCalls, explainConversations } from "./conversations";

/** The timed calls: [name, target p95, request, rows the first answer must hold at least]. */
const messageCalls = (busy: Headers, typical: Headers, auth: Headers, day: string, typicalIndex: number) =>
  [
    ["GET /api/messages/inbox (typical member, page 1)", TARGETS.inbox, get("/api/messages/inbox", typical), 1],
    ["GET /api/messages/inbox (busy member: 1% of all)", TARGETS.inbox, get("/api/messages/inbox", busy), 20],
    ["GET /api/messages/unread (busy member)", TARGETS.inbox, get("/api/messages/unread", busy), 20],
    ["GET /api/messages/sent (typical member)", TARGETS.inbox, get("/api/messages/sent", typical), 0],
    // 受信 (read only), the last page of a busy box, the partner name search.
    ["GET /api/messages/read (busy member)", TARGETS.inbox, get("/api/messages/read", busy), 20],
    [
      "GET /api/messages/inbox (busy member, page 400 of 20)",
      TARGETS.inbox,
      get("/api/messages/inbox?page=400&limit=20", busy),
      0,
    ],
    [
      "GET /api/messages/inbox partner=佐藤 (busy member: 2 characters, each sender by primary key)",
      TARGETS.inbox,
      get(`/api/messages/inbox?partner=${encodeURIComponent("佐藤")}`, busy),
      1,
    ],
    [
      "GET /api/messages/read partner=健太郎 (busy member: users trigram index, nobody)",
      TARGETS.inbox,
      get(`/api/messages/read?partner=${encodeURIComponent("健太郎")}`, busy),
      0,
    ],
    [
      "GET /api/messages/unread?withOperator=true (busy member)",
      TARGETS.inbox,
      get("/api/messages/unread?withOperator=true", busy),
      20,
    ],
    [
      "GET /api/admin/messages page 1 (limit 50)",
      TARGETS.adminMessages,
      get("/api/admin/messages?page=1&limit=50", auth),
      50,
    ],
    [
      "GET /api/admin/messages status=unread page 1",
      TARGETS.adminMessages,
      get("/api/admin/messages?status=unread&page=1&limit=50", auth),
      50,
    ],
    [
      "GET /api/admin/messages page 100 (limit 50)",
      TARGETS.adminMessages,
      get("/api/admin/messages?page=100&limit=50", auth),
      50,
    ],
    [
      `GET /api/admin/messages search userID (${memberId(typicalIndex)})`,
      TARGETS.adminMessages,
      get(`/api/admin/messages?search=${memberId(typicalIndex)}&limit=50`, auth),
      1,
    ],
    [
      "GET /api/admin/messages search body word (はじめまして)",
      TARGETS.adminMessages,
      get(`/api/admin/messages?search=${encodeURIComponent("はじめまして")}&limit=50`, auth),
      50,
    ],
    [
      "GET /api/admin/messages search name (佐藤: broad, bounded)",
      TARGETS.adminMessages,
      get(`/api/admin/messages?search=${encodeURIComponent("佐藤")}&limit=50`, auth),
      1,
    ],
    [
      "GET /api/admin/messages box=inbox partner=佐藤 (short name: newest window)",
      TARGETS.adminMessages,
      get(`/api/admin/messages?box=inbox&partner=${encodeURIComponent("佐藤")}&limit=50`, auth),
      0,
    ],
    [
      "GET /api/admin/messages partner=userID (trigram index)",
      TARGETS.adminMessages,
      get(`/api/admin/messages?partner=${memberId(typicalIndex)}&limit=50`, auth),
      1,
    ],
    [
      "GET /api/admin/messages one day (dateFrom=dateTo)",
      TARGETS.adminMessages,
      get(`/api/admin/messages?dateFrom=${day}&dateTo=${day}&limit=50`, auth),
      1,
    ],
  ] as const;

/**
 * The message lists' scenario: `time(phase)` times every call at the size seeded now. The typical
 * member is one a third into the small membership. The "one day" line asks for the (Japanese) day
 * of the newest message at the small size: it holds those messages then and a full day's at the
 * full size (today held none of the first 10,000).
 */
export function messageLists(bench: Bench, smallMembers: number) {
  const typicalIndex = Math.ceil(smallMembers / 3);
  let oneDay: string | undefined;
  return {
    typical: memberId(typicalIndex),
    day: () => oneDay ?? "",
    async time(phase: Phase): Promise<void> {
      const { app } = bench;
      const busy = await bench.login(memberId(1));
      const typical = await bench.login(memberId(typicalIndex));
      if (!oneDay) {
        const [newest] = await query<{ day: string }>(
          app,
          "select to_char(max(created_at) at time zone 'Asia/Tokyo', 'YYYY-MM-DD') as day from messages",
        );
        oneDay = newest?.day ?? japanDayOf(new Date());
      }
      for (const [name, target, request, min] of messageCalls(
        busy,
        typical,
        await bench.adminLogin(),
        oneDay,
        typicalIndex,
      )) {
        bench.record(
          phase,
          await time(app, name, target, request, (body) => {
            const { messages, pagination } = JSON.parse(body) as { messages: unknown[]; pagination: { total: number } };
            if (messages.length < Math.min(min, pagination.total))
              throw new Error(`expected ${min} rows, got ${messages.length}`);
          }),
        );
      }
      // Conversations (decision 0030): the list and the long conversation, and their plans.
      for (const call of await conversationCalls(app, busy, typical, memberId(2))) {
        bench.record(
          phase,
          await time(
            app,
            call.name,
            TARGETS.inbox,
            () => ({ method: "GET", url: call.url, headers: call.headers }),
            (body) => {
              const parsed = JSON.parse(body) as { pagination?: { total: number } };
              const rows = call.rows(parsed);
              if (rows < Math.min(call.min, parsed.pagination?.total ?? call.min))
                throw new Error(`${call.name}: expected ${call.min} rows, got ${rows}`);
            },
          ),
        );
      }
      await explainConversations(app, memberId(1), memberId(2));
    },
  };
}

/**
 * The statements behind GET /api/admin/messages (messages/message-rows.ts paged() and admin-search.ts),
 * written out by hand with the values the service would bind.
 */
export async function explainAdminList(app: App, userID: string, day: string): Promise<void> {
  const live = "m.deleted_at is null";
  // The day as the service reads it: a Japanese day (shared japanDayStart), not a UTC one.
  const oneDay = `m.created_at >= '${japanDayStart(day).toISOString()}'::timestamptz and m.created_at < '${japanDayStart(day, 1).toISOString()}'::timestamptz`;
  const page = (where: string) =>
    `select m.id from messages m where ${live} and ${where} order by m.created_at desc, m.id desc limit 50`;
  const capped = (where: string) =>
    `select count(*) from (select 1 from messages m where ${live} and ${where} limit 10001) c`;
  const [account] = await query<{ id: string }>(app, `select id from users where user_id = '${userID}'`);
  const byUser = `(m.body ilike '%${userID}%' or m.from_user_id in ('${account?.id}') or m.to_user_id in ('${account?.id}'))`;
  const [edge] = await query<{ at: string }>(
    app,
    "select created_at::text as at from messages where deleted_at is null order by created_at desc, id desc offset 9999 limit 1",
  );
  const window = `m.created_at >= '${edge?.at ?? "-infinity"}'::timestamptz
    and (m.body ilike '%佐藤%'
      or coalesce((select p.name ilike '%佐藤%' or p.user_id ilike '%佐藤%' from users p where p.id = m.from_user_id), false)
      or coalesce((select p.name ilike '%佐藤%' or p.user_id ilike '%佐藤%' from users p where p.id = m.to_user_id), false))`;
  await explain(app, [
    ["admin messages count (capped), no filter", capped("true")],
    ["admin messages page 1, no filter", page("true")],
    ["admin messages count (capped), status=unread", capped("m.is_read = false and m.has_reply = false")],
    [
      "admin messages page 100",
      `select m.id from messages m where ${live} order by m.created_at desc, m.id desc limit 50 offset 4950`,
    ],
    [`admin messages page 1, one day ${day}`, page(oneDay)],
    [
      `admin messages count (capped, newest first as the service counts a date range), one day ${day}`,
      `select count(*) from (select 1 from messages m where ${live} and ${oneDay} order by m.created_at desc, m.id desc limit 10001) c`,
    ],
    [
      "admin search: accounts matching the keyword (users trigram indexes)",
      `select id from users where name ilike '%${userID}%' or user_id ilike '%${userID}%' limit 1001`,
    ],
    [`admin search page 1, userID ${userID}`, page(byUser)],
    [`admin search count (capped), userID ${userID}`, capped(byUser)],
    ["admin search page 1, body word はじめまして (messages trigram index)", page("m.body ilike '%はじめまして%'")],
    ["admin search count (capped), body word はじめまして", capped("m.body ilike '%はじめまして%'")],
    ["admin search page 1, 2-character keyword 佐藤 (newest 10,000 only)", page(window)],
    ["admin search count, 2-character keyword 佐藤 (newest 10,000 only)", capped(window)],
  ]);
}
