import net from "node:net";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";

/**
 * patches/postgres@3.4.9.patch: a transaction's BEGIN is not waited for, so its first statements
 * go to PostgreSQL in the same write (issue 27: every round trip of a paid action is a wake-up of
 * the server and of PostgreSQL). These hold the patch to that, and to what a transaction must still
 * do: run on one connection, in order, all or nothing. Needs TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("postgres.js transactions (patched BEGIN)", () => {
  let writes = 0;
  const clients: postgres.Sql[] = [];
  /** A client whose connections count the writes they make to PostgreSQL. */
  const client = (max: number) => {
    // postgres.js takes a `socket` factory; its types do not declare it.
    const options = {
      max,
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
    const sql = postgres(url as string, options as postgres.Options<Record<string, postgres.PostgresType>>);
    clients.push(sql);
    return sql;
  };
  afterAll(async () => {
    await Promise.all(clients.map((sql) => sql.end()));
  });

  it("writes BEGIN and the first statement together: a one-statement transaction is two writes", async () => {
    const sql = client(1);
    await sql`select 1`; // connected
    writes = 0;
    const [row] = await sql.begin(async (tx) => tx`select txid_current() as id, 1 as one`);
    expect(row).toMatchObject({ one: 1 });
    // BEGIN + the statement, then COMMIT (unpatched: BEGIN, the statement, COMMIT).
    expect(writes).toBe(2);
  });

  it("60 transactions at once on 2 connections: each on one connection, in order, committed whole", async () => {
    const sql = client(2);
    await sql`create temporary table if not exists begin_probe (n int)`.catch(() => {});
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
  });

  it("a failing statement rolls the transaction back, and the connection serves the next one", async () => {
    const sql = client(1);
    await sql`create temporary table begin_rollback (n int)`;
    await expect(
      sql.begin(async (tx) => {
        await tx`insert into begin_rollback values (1)`;
        await tx`select 1 / 0`;
      }),
    ).rejects.toMatchObject({ code: "22012" });
    // A statement not waited for fails the transaction too, even when the callback returns.
    await expect(
      sql.begin(async (tx) => {
        tx`insert into begin_rollback values (2)`.catch(() => {});
        tx`select 1 / 0`.catch(() => {});
        return "returned";
      }),
    ).rejects.toMatchObject({ code: "22012" });
    const [count] = await sql`select count(*)::int as n from begin_rollback`;
    expect(count).toEqual({ n: 0 });
    expect(await sql.begin(async (tx) => tx`insert into begin_rollback values (3) returning n`)).toEqual([{ n: 3 }]);
  });
});
