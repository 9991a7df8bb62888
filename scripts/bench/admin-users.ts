/**
 * The administrators' user list and the login of `pnpm bench`, at the full size against fixed
 * targets: page 1, a userID search, a gender search, the last page; a login at argon2id's
 * production cost (each simulated client from its own address); the point costs.
 */
import { MEMBER_PASSWORD, memberId } from "../lib/seed";
import { type Bench, MEMBERS, PAGE_SIZE, type Result, TARGETS, time } from "./context";

export async function benchAdminUsers(bench: Bench): Promise<Result[]> {
  const { app } = bench;
  const results: Result[] = [];
  const auth = await bench.adminLogin();
  const lastPage = Math.ceil((MEMBERS + 1) / PAGE_SIZE);
  const list = (query: string) => ({ method: "GET" as const, url: `/api/admin/users?${query}`, headers: auth });
  const expectRows = (count: number, first?: string) => (body: string) => {
    const rows = JSON.parse(body) as Array<{ userID: string }>;
    if (rows.length !== count) throw new Error(`expected ${count} rows, got ${rows.length}`);
    if (first && rows[0]?.userID !== first) throw new Error(`expected ${first} first, got ${rows[0]?.userID}`);
  };

  results.push(
    await time(
      app,
      "GET /api/admin/users page 1 (limit 50)",
      TARGETS.list,
      () => list(`page=1&limit=${PAGE_SIZE}`),
      expectRows(PAGE_SIZE),
    ),
  );
  const probe = memberId(Math.ceil(MEMBERS / 2));
  results.push(
    await time(
      app,
      `GET /api/admin/users userID search (${probe})`,
      TARGETS.search,
      () => list(`field=userID&search=${probe}`),
      expectRows(1, probe),
    ),
  );
  results.push(
    await time(
      app,
      "GET /api/admin/users gender search (female, page 1)",
      TARGETS.search,
      () => list(`field=gender&search=female&page=1&limit=${PAGE_SIZE}`),
      expectRows(PAGE_SIZE),
    ),
  );
  results.push(
    await time(
      app,
      `GET /api/admin/users last page (page ${lastPage})`,
      TARGETS.list,
      () => list(`page=${lastPage}&limit=${PAGE_SIZE}`),
      expectRows((MEMBERS + 1) % PAGE_SIZE || PAGE_SIZE),
    ),
  );
  // Each simulated client logs in from its own address, so the per-IP login limit stays realistic.
  results.push(
    await time(app, "POST /api/auth/login (argon2id, production cost)", TARGETS.login, (run) => ({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: memberId(1 + ((run * 7919) % MEMBERS)), password: MEMBER_PASSWORD },
      remoteAddress: `10.77.${run >> 8}.${run & 255}`,
    })),
  );
  results.push(
    await time(app, "GET /api/point-costs", TARGETS.pointCosts, () => ({ method: "GET", url: "/api/point-costs" })),
  );
  return results;
}
