/**
 * The profile search of `pnpm bench` (members.search through GET /api/users/search) for the common
 * filter combinations, timed at 10,000 members and at BENCH_MEMBERS; BENCH_EXPLAIN=1 prints the
 * plans of the statements behind it.
 */
import { yearsBefore } from "@enmusubi/shared";
import { memberId } from "../lib/seed";
import { type App, query } from "../lib/target";
import { type Bench, explain, get, type Headers, type Phase, TARGETS, time } from "./context";

/** The searching member: a man, who searches women. */
export const SEARCHER = memberId(3);

const searchCalls = (headers: Headers) =>
  [
    ["gender only (other gender, most recently active first: the default)", ""],
    ["gender only, newest registered first (order=newest)", "order=newest"],
    ["gender + age 25–35", "ageMin=25&ageMax=35"],
    ["gender + prefecture (東京都)", `prefecture=${encodeURIComponent("東京都")}`],
    ["gender + has photo", "hasPhoto=true"],
    ["keyword in name (美咲)", `keyword=${encodeURIComponent("美咲")}`],
    ["keyword in 自己紹介 (カフェ: 1 in 30)", `keyword=${encodeURIComponent("カフェ")}`],
    ["keyword in 自己紹介, hiragana (かふぇ finds カフェ)", `keyword=${encodeURIComponent("かふぇ")}`],
    ["keyword in 自己紹介, rare (鰻重: 1 in 5,000)", `keyword=${encodeURIComponent("鰻重")}`],
    ["two words, name and 自己紹介 (美咲 カフェ)", `keyword=${encodeURIComponent("美咲 カフェ")}`],
  ].map(([label, query]) => ({
    name: `GET /api/users/search ${label}`,
    request: get(`/api/users/search?limit=20${query ? `&${query}` : ""}`, headers),
  }));

/** Times every search call at this phase's size; each must find someone. */
export async function timeSearches(bench: Bench, phase: Phase): Promise<void> {
  const headers = await bench.login(SEARCHER);
  for (const call of searchCalls(headers)) {
    bench.record(
      phase,
      await time(bench.app, call.name, TARGETS.search, call.request, (body) => {
        const { profiles } = JSON.parse(body) as { profiles: unknown[] };
        if (profiles.length === 0) throw new Error(`${call.name}: no profiles`);
      }),
    );
  }
}

/** The statements behind GET /api/users/search (members/search.ts searchMembers), by hand. */
export async function explainSearch(app: App, userID: string): Promise<void> {
  const [me] = await query<{ id: string }>(app, `select id from users where user_id = '${userID}'`);
  const base = `u.deleted_at is null and u.suspended_at is null and u.role = 'user'
    and u.verification_status = 'verified' and u.id <> '${me?.id}' and u.gender = 'female'
    and not exists (select 1 from user_blocks b where (b.blocker_id = '${me?.id}' and b.blocked_id = u.id)
      or (b.blocker_id = u.id and b.blocked_id = '${me?.id}'))`;
  // The profile search's own age bounds (shared values.ts).
  const today = new Date();
  const before = (years: number) => yearsBefore(today, years);
  const filters: Array<[string, string]> = [
    ["gender only", "true"],
    ["gender + age 25–35", `u.birthday <= '${before(25)}' and u.birthday > '${before(36)}'`],
    ["gender + prefecture 東京都", "u.address = '東京都'"],
    ["gender + has photo", "coalesce(u.photo_link, '') <> ''"],
    // A common gram: the page walks the activity index checking the words; the count reads the gram's members.
    ["keyword 美咲 (common gram)", "strpos(u.search_text, '美咲') > 0"],
  ];
  // A rare gram: the service reads its members first and gives them as a list (search.ts).
  const rare = await query<{ id: string }>(app, "select user_id as id from member_search_grams where gram = '鰻重'");
  const list = rare.length > 0 ? rare.map((r) => `'${r.id}'`).join(",") : "null";
  filters.push([
    `keyword 鰻重 (rare gram: its ${rare.length} members as a list)`,
    `strpos(u.search_text, '鰻重') > 0 and u.id in (${list})`,
  ]);
  await explain(
    app,
    filters.flatMap(
      ([label, where]): Array<[string, string]> => [
        [
          `profile search page 1, ${label}`,
          `select u.id from users u where ${base} and ${where} order by u.last_active_at desc nulls last, u.id desc limit 20`,
        ],
        [
          `profile search count (capped at 1,000), ${label}`,
          `select count(*) from (select 1 from users u where ${base} and ${where} limit 1001) c`,
        ],
      ],
    ),
  );
}
