import net from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakePostgres, startFakePostgres } from "./fake-postgres";

/**
 * patches/postgres@3.4.9.patch, its two hunks that change what a transaction does (patches/README.md):
 *
 * - BEGIN written ahead: a plain BEGIN is not waited for, so the transaction's first statements go
 *   to PostgreSQL in the same write (decision 0037: every round trip of a paid action is a wake-up
 *   of the server and of PostgreSQL). A BEGIN with options is still waited for.
 * - Refusal after a failed COMMIT: a transaction in which a statement not waited for failed is
 *   refused, though its callback returned (PostgreSQL answers that COMMIT with a rollback).
 *
 * Each runs on a fake server in `pnpm test:unit` (fake-postgres.ts) and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
function transactions(target: () => string) {
  let writes = 0;
  let tables = 0;
  const clients: postgres.Sql[] = [];
  /** A client whose connections count the writes they make to the server. */
  const client = (max: number) => {
    // postgres.js takes a `socket` factory; its types do not declare it.
    const options = {
      max,
      fetch_types: false,
      onnotice: () => {},
      socket: ({ host, port }: { host: string[]; port: number[] }) => {
        const socket = net.connect({ host: host[0] as string, port: port[0] as number });
        const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
        socket.write = ((...args: unknown[]) => {
          writes += 1;
          return write(...args);
        }) as typeof socket.write;
        return socket;
      },
    };
    const sql = postgres(target(), options as postgres.Options<Record<string, postgres.PostgresType>>);
    clients.push(sql);
    return sql;
  };
  /** A temporary table (n int) on the one connection of `sql`. */
  const probe = async (sql: postgres.Sql) => {
    const name = `begin_probe_${++tables}`;
    await sql.unsafe(`create temporary table ${name} (n int)`);
    return name;
  };
  const count = async (sql: postgres.Sql, table: string) =>
    (await sql.unsafe(`select count(*)::int as n from ${table}`))[0]?.n;
  afterAll(async () => {
    await Promise.all(clients.map((sql) => sql.end()));
  });

  it("BEGIN written ahead: a plain BEGIN goes with the first statement, so a one-statement transaction is two writes", async () => {
    const sql = client(1);
    await sql`select 1 as connected`;
    writes = 0;
    const [row] = await sql.begin(async (tx) => tx`select 1 as one`);
    expect(row).toEqual({ one: 1 });
    // BEGIN + the statement, then COMMIT (unpatched: BEGIN, the statement, COMMIT).
    expect(writes).toBe(2);
  });

  it("BEGIN written ahead: a BEGIN with options is waited for, and when refused nothing behind it runs", async () => {
    const sql = client(1);
    const table = await probe(sql);
    await expect(
      sql.begin("isolation level bogus", async (tx) => {
        await tx.unsafe(`insert into ${table} values (1)`);
      }),
    ).rejects.toMatchObject({ code: "42601" });
    // Written behind the refused BEGIN, the insert would have run, and committed, on its own.
    expect(await count(sql, table)).toBe(0);
    expect(await sql.begin("isolation level serializable", async (tx) => tx`select 2 as two`)).toEqual([{ two: 2 }]);
  });

  it("BEGIN written ahead: a failing statement rolls the transaction back, and the connection serves the next one", async () => {
    const sql = client(1);
    const table = await probe(sql);
    await expect(
      sql.begin(async (tx) => {
        await tx.unsafe(`insert into ${table} values (1)`);
        await tx`select 1 / 0`;
      }),
    ).rejects.toMatchObject({ code: "22012" });
    expect(await count(sql, table)).toBe(0);
    await sql.begin(async (tx) => tx.unsafe(`insert into ${table} values (3)`));
    expect(await count(sql, table)).toBe(1);
  });

  it("refusal after a failed COMMIT: a statement not waited for fails the transaction, though the callback returned", async () => {
    const sql = client(1);
    const table = await probe(sql);
    await expect(
      sql.begin(async (tx) => {
        tx.unsafe(`insert into ${table} values (2)`).catch(() => {});
        tx`select 1 / 0`.catch(() => {});
        return "returned";
      }),
    ).rejects.toMatchObject({ code: "22012" });
    expect(await count(sql, table)).toBe(0);
  });
}

describe("postgres.js transactions (patched), on a fake server", () => {
  let fake: FakePostgres;
  beforeAll(async () => {
    fake = await startFakePostgres();
  });
  afterAll(async () => {
    await fake.close();
  });
  transactions(() => fake.url);
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("postgres.js transactions (patched), on PostgreSQL", () => {
  transactions(() => url as string);

  it("BEGIN written ahead: 60 transactions at once on 2 connections, each on one connection, in order, committed whole", async () => {
    const sql = postgres(url as string, { max: 2, onnotice: () => {} });
    try {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, n) =>
          sql.begin(async (tx) => {
            const [first] = await tx`select pg_backend_pid() as pid, txid_current() as txid`;
            const [again] = await tx`select pg_backend_pid() as pid, txid_current() as txid, ${n}::int as n`;
            return { first, again, n };
          }),
        ),
      );
      for (const { first, again, n } of results) {
        expect(again).toEqual({ ...first, n });
      }
      // Each transaction had its own id.
      expect(new Set(results.map((r) => String(r.first?.txid))).size).toBe(60);
    } finally {
      await sql.end();
    }
  });
});
