import net from "node:net";

/**
 * A PostgreSQL server for postgres.js in a test, on a loopback port: it speaks enough of the wire
 * protocol (startup without a password, simple and extended queries, errors and the transaction
 * state) to run the handful of statements below, and keeps what was committed. It lets the
 * postgres.js patch's transaction tests run in `pnpm test:unit` without a database; the same
 * tests run on PostgreSQL when TEST_DATABASE_URL is set, which holds this fake to PostgreSQL's
 * answers.
 *
 * Statements (lower case, one space apart): `begin`, `begin <options>` (only `isolation level
 * read committed | repeatable read | serializable` and `read write | read only` are accepted,
 * anything else is a syntax error), `commit`, `rollback`, `create temporary table <t> (n int)`,
 * `insert into <t> values (<n>)`, `select count(*)::int as n from <t>`, `select <n> as <name>`
 * and `select 1 / 0`. As in PostgreSQL, a failed statement aborts the transaction: later
 * statements are refused (25P02) and its COMMIT is answered ROLLBACK; outside a transaction each
 * statement commits on its own.
 */
export interface FakePostgres {
  url: string;
  close(): Promise<void>;
}

interface Outcome {
  tag: string;
  columns: string[];
  rows: number[][];
}

class StatementError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const BEGIN_OPTIONS = /^(isolation level (read committed|repeatable read|serializable)|read (write|only))$/;

/** The columns a statement answers, known before it runs (for Describe). */
function columnsOf(text: string): string[] {
  if (/^select count\(\*\)::int as n from \w+$/.test(text)) return ["n"];
  const literal = /^select \d+ as (\w+)$/.exec(text);
  if (literal) return [literal[1] as string];
  if (text === "select 1 / 0") return ["?column?"];
  return [];
}

function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const cstring = (s: string) => Buffer.from(`${s}\0`, "utf8");

function rowDescription(columns: string[]): Buffer {
  if (columns.length === 0) return message("n");
  // Each column: name, table oid, attribute number, type oid (int4), size, modifier, text format.
  const fields = columns.map((name) =>
    Buffer.concat([cstring(name), int32(0), int16(0), int32(23), int16(4), int32(-1), int16(0)]),
  );
  return message("T", int16(columns.length), ...fields);
}
function dataRow(values: number[]): Buffer {
  return message(
    "D",
    int16(values.length),
    ...values.flatMap((v) => {
      const text = Buffer.from(String(v));
      return [int32(text.length), text];
    }),
  );
}
function errorResponse(error: StatementError): Buffer {
  return message(
    "E",
    cstring("SERROR"),
    cstring("VERROR"),
    cstring(`C${error.code}`),
    cstring(`M${error.message}`),
    Buffer.from([0]),
  );
}

export async function startFakePostgres(): Promise<FakePostgres> {
  /** Committed rows, by table. */
  const tables = new Map<string, number[]>();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffered = Buffer.alloc(0);
    let started = false;
    let state: "I" | "T" | "E" = "I";
    /** Inserts of the open transaction, applied at its COMMIT. */
    let pending: [string, number][] = [];
    /** Extended protocol: statements by name, the bound one, and whether an error skips to Sync. */
    const statements = new Map<string, string>();
    let portal = "";
    let skipping = false;

    const table = (name: string) => {
      const rows = tables.get(name);
      if (!rows) throw new StatementError("42P01", `relation "${name}" does not exist`);
      return rows;
    };

    const run = (text: string): Outcome => {
      const done = (tag: string, rows: number[][] = []): Outcome => ({ tag, columns: columnsOf(text), rows });
      if (state === "E" && text !== "commit" && text !== "rollback")
        throw new StatementError(
          "25P02",
          "current transaction is aborted, commands ignored until end of transaction block",
        );
      try {
        if (text === "begin" || text.startsWith("begin ")) {
          const options = text.slice("begin".length).trim();
          if (options && !BEGIN_OPTIONS.test(options))
            throw new StatementError("42601", `syntax error at or near "${options.split(" ").pop()}"`);
          if (state === "I") state = "T";
          return done("BEGIN");
        }
        if (text === "commit" || text === "rollback") {
          const committed = text === "commit" && state === "T";
          if (committed) for (const [name, n] of pending) table(name).push(n);
          pending = [];
          const aborted = state === "E";
          state = "I";
          return done(committed || (!aborted && text === "commit") ? "COMMIT" : "ROLLBACK");
        }
        const create = /^create temporary table (\w+) \(n int\)$/.exec(text);
        if (create) {
          tables.set(create[1] as string, []);
          return done("CREATE TABLE");
        }
        const insert = /^insert into (\w+) values \((\d+)\)$/.exec(text);
        if (insert) {
          const rows = table(insert[1] as string);
          if (state === "T") pending.push([insert[1] as string, Number(insert[2])]);
          else rows.push(Number(insert[2]));
          return done("INSERT 0 1");
        }
        const count = /^select count\(\*\)::int as n from (\w+)$/.exec(text);
        if (count) {
          const name = count[1] as string;
          return done("SELECT 1", [[table(name).length + pending.filter(([t]) => t === name).length]]);
        }
        const literal = /^select (\d+) as \w+$/.exec(text);
        if (literal) return done("SELECT 1", [[Number(literal[1])]]);
        if (text === "select 1 / 0") throw new StatementError("22012", "division by zero");
        throw new StatementError("0A000", `the fake server does not run: ${text}`);
      } catch (error) {
        if (state === "T") state = "E";
        throw error;
      }
    };

    /** The answer to one statement: its rows (with their description when asked) and its tag, or its error. */
    const answer = (text: string, describe: boolean): Buffer[] => {
      try {
        const outcome = run(text);
        return [
          ...(describe ? [rowDescription(outcome.columns)] : []),
          ...outcome.rows.map(dataRow),
          message("C", cstring(outcome.tag)),
        ];
      } catch (error) {
        if (!(error instanceof StatementError)) throw error;
        return [errorResponse(error)];
      }
    };
    const normal = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

    const handle = (type: string, body: Buffer): Buffer[] => {
      if (type === "Q") {
        const text = normal(body.toString("utf8", 0, body.length - 1));
        return [...answer(text, true), message("Z", Buffer.from(state))];
      }
      if (type === "S") {
        skipping = false;
        return [message("Z", Buffer.from(state))];
      }
      if (type === "X") {
        socket.end();
        return [];
      }
      if (skipping || type === "H") return [];
      if (type === "P") {
        const nameEnd = body.indexOf(0);
        const textEnd = body.indexOf(0, nameEnd + 1);
        statements.set(body.toString("utf8", 0, nameEnd), normal(body.toString("utf8", nameEnd + 1, textEnd)));
        return [message("1")];
      }
      if (type === "D") {
        const text = statements.get(body.toString("utf8", 1, body.indexOf(0, 1))) ?? "";
        return [message("t", int16(0)), rowDescription(columnsOf(text))];
      }
      if (type === "B") {
        const portalEnd = body.indexOf(0);
        portal = statements.get(body.toString("utf8", portalEnd + 1, body.indexOf(0, portalEnd + 1))) ?? "";
        return [message("2")];
      }
      if (type === "E") {
        const answered = answer(portal, false);
        if (answered.some((b) => b[0] === "E".charCodeAt(0))) skipping = true;
        return answered;
      }
      if (type === "C") return [message("3")];
      skipping = true;
      return [errorResponse(new StatementError("08P01", `the fake server does not handle message ${type}`))];
    };

    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const out: Buffer[] = [];
      for (;;) {
        if (!started) {
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          buffered = buffered.subarray(length);
          if (code === 80877103) {
            out.push(Buffer.from("N")); // no TLS
            continue;
          }
          started = true;
          out.push(
            message("R", int32(0)),
            message("S", cstring("server_version"), cstring("15.0")),
            message("S", cstring("client_encoding"), cstring("UTF8")),
            message("K", int32(4242), int32(1)),
            message("Z", Buffer.from("I")),
          );
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) break;
        const type = String.fromCharCode(buffered[0] as number);
        const body = buffered.subarray(5, length + 1);
        buffered = buffered.subarray(length + 1);
        out.push(...handle(type, body));
      }
      if (out.length > 0 && !socket.destroyed) socket.write(Buffer.concat(out));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgres://fake@127.0.0.1:${port}/fake`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
