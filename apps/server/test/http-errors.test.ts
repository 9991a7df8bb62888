import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { openTestDatabase } from "@enmusubi/db/testing";
import { MSG, TRPC_MAX_URL_LENGTH } from "@enmusubi/shared";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { testPasswords, useTestServer } from "./helpers";

/**
 * Errors raised before any route runs (Node's HTTP parser, Fastify's router and body parsers, a
 * request while the server closes) answer like every other error: `{ "message": "…" }` in
 * Japanese from the catalogue, never Fastify's or Node's English text, never the refused URL.
 * The parser's errors only happen on a real socket, so these tests talk HTTP to a listening app.
 */

const server = useTestServer();
let port: number;

beforeAll(async () => {
  await server.app.listen({ port: 0, host: "127.0.0.1" });
  port = (server.app.server.address() as AddressInfo).port;
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (no client-side checks) and reads the answer until the server closes. */
function rawHttp(text: string, toPort = port): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Not half-closed: Node would then close the connection before a slower answer is written.
    const socket = connect(toPort, "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(parseAnswer(Buffer.concat(chunks).toString("utf8"))));
  });
}

function parseAnswer(raw: string): RawAnswer {
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine = "", ...headerLines] = raw.slice(0, split).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (headers["transfer-encoding"] === "chunked")
    body = body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, "");
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

function get(target: string, headers = "") {
  return rawHttp(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`);
}

function expectMessage(answer: RawAnswer, status: number, message: string) {
  expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status, body: { message } });
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
}

describe("errors of Node's HTTP parser (clientError)", () => {
  it("headers larger than the limit: 431 in Japanese", async () => {
    const answer = await get("/api/occupations", `X-Filler: ${"a".repeat(20_000)}\r\n`);
    expectMessage(answer, 431, MSG.headerTooLarge);
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
  });

  it("a URL longer than the header limit: 431 in Japanese, the URL not echoed", async () => {
    const answer = await get(`/api/occupations?q=${"secret-looking-text".repeat(1000)}`);
    expectMessage(answer, 431, MSG.headerTooLarge);
    expect(answer.body).not.toContain("secret-looking-text");
  });

  it("a method Node does not know: 501 in Japanese", async () => {
    const answer = await rawHttp("FOO /api/occupations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expectMessage(answer, 501, MSG.methodNotSupported);
    // Methods Node knows but no route takes are a Japanese 404, like any unknown address.
    for (const method of ["PATCH", "PROPFIND", "SEARCH"]) {
      const other = await rawHttp(
        `${method} /api/occupations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expectMessage(other, 404, MSG.notFound);
    }
  });

  it("a malformed header line and conflicting framing headers: 400 in Japanese", async () => {
    expectMessage(
      await rawHttp("GET /api/occupations HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n"),
      400,
      MSG.badRequest,
    );
    const smuggling = await rawHttp(
      "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
    );
    expectMessage(smuggling, 400, MSG.badRequest);
  });

  it("an HTTP/1.1 request without Host: 400 in Japanese (Node would answer an empty 400)", async () => {
    const answer = await rawHttp("GET /api/occupations HTTP/1.1\r\nConnection: close\r\n\r\n");
    expectMessage(answer, 400, MSG.badRequest);
    // HTTP/1.0 needs no Host.
    expect((await rawHttp("GET /healthz HTTP/1.0\r\n\r\n")).status).toBe(200);
  });
});

describe("errors of Fastify's router and body parsers", () => {
  it("malformed percent-encoding in the path: 400 in Japanese, the path not echoed", async () => {
    for (const target of ["/api/admin/users/%E0%A4%A", "/trpc/%E0%A4%A", "/uploads/%zz", "/%E0%A4%A"]) {
      const answer = await get(target);
      expectMessage(answer, 400, MSG.invalidUrl);
      expect(answer.body).not.toContain("%");
    }
    // In the query it is no error at all (read leniently): the route answers as usual.
    expect((await get("/healthz?x=%zz&y=%E0%A4%A")).status).toBe(200);
    const refused = await get("/api/admin/users?page=%zz");
    expect(refused.status).toBe(401);
    expect(Object.keys(JSON.parse(refused.body))).toEqual(["message"]);
  });

  it("a path parameter longer than the router allows: 414 in Japanese, the URL not echoed", async () => {
    const long = "x".repeat(TRPC_MAX_URL_LENGTH + 1);
    const answer = await rawHttp(
      `DELETE /api/admin/users/${long} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expectMessage(answer, 414, MSG.uriTooLong);
    expect(answer.body).not.toContain(long);
  });

  it("a multipart body to tRPC is refused before it is read, even past the body limit", async () => {
    // tRPC would read a multipart body whole, past Fastify's bodyLimit; the app only sends JSON.
    const body = Buffer.alloc(16 * 1024 * 1024, "z");
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/trpc/auth.login",
          headers: { "content-type": "multipart/form-data; boundary=x", "content-length": body.length },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => {
            text += chunk.toString("utf8");
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({
      status: 415,
      body: { message: MSG.unsupportedMediaType },
    });
  });

  it("a body in a content type nobody parses: 415 in Japanese (REST and tRPC)", async () => {
    for (const url of ["/api/auth/login", "/trpc/auth.login"]) {
      for (const type of ["text/xml", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"]) {
        const answer = await server.app.inject({
          method: "POST",
          url,
          headers: { "content-type": type },
          payload: "<a/>",
        });
        expect({ status: answer.statusCode, body: answer.json() }).toEqual({
          status: 415,
          body: { message: MSG.unsupportedMediaType },
        });
      }
    }
    // Broken JSON keeps its own message.
    const broken = await server.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{",
    });
    expect({ status: broken.statusCode, body: broken.json() }).toEqual({
      status: 400,
      body: { message: MSG.invalidJson },
    });
  });
});

describe("a request arriving while the server shuts down", () => {
  it("is answered 503 in Japanese, not Fastify's English 503", async () => {
    const database = await openTestDatabase(inject("dbTemplate"));
    const config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-closing-test-")),
        JWT_SECRET: "closing-test-secret-closing-test-secret-0123",
      }),
      jobs: false,
    };
    const app = await buildApp(config, { database, logger: false, passwords: testPasswords });
    // preClose runs once Fastify has started closing and before the listener stops.
    let duringClose = async () => {};
    app.addHook("preClose", () => duringClose());
    await app.listen({ port: 0, host: "127.0.0.1" });

    // A keep-alive connection: one request answered, the next one sent while the server closes.
    const socket = connect((app.server.address() as AddressInfo).port, "127.0.0.1");
    let received = "";
    const firstAnswered = new Promise<void>((resolve) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("utf8");
        if (received.endsWith('{"status":"ok"}')) resolve();
      });
    });
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await firstAnswered;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    received = "";

    duringClose = async () => {
      socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      await closed;
    };
    await app.close();
    await database.close();
    const answer = parseAnswer(received);
    expectMessage(answer, 503, MSG.serviceUnavailable);
  });
});
