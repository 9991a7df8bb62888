import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "../src/config";
import { type TestServer, useTestServer } from "./helpers";

/**
 * X-Forwarded-For is believed only from the proxies TRUST_PROXY names. Unset, a client that
 * rotates the header still has one per-IP login budget (30 attempts per 10 minutes).
 */

const LOGIN_PER_IP = 30;
let attempt = 0;

function login(server: TestServer, remoteAddress: string, forwardedFor?: string) {
  return server.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
    // A different account each time, so only the per-IP limit can refuse (not the per-account one).
    payload: { userID: `nobody-${++attempt}`, password: "wrong-password" },
  });
}

describe("TRUST_PROXY unset", () => {
  const server = useTestServer({ limits: true });

  it("rotating X-Forwarded-For does not escape the per-IP login limit", async () => {
    for (let i = 0; i < LOGIN_PER_IP; i++) {
      expect((await login(server, "203.0.113.7", `198.51.100.${i + 1}`)).statusCode).toBe(401);
    }
    const refused = await login(server, "203.0.113.7", "198.51.100.200");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: "試行回数が多すぎます。しばらくしてから再度お試しください。" });
    // The limit is the socket address's: another client is not affected.
    expect((await login(server, "203.0.113.8")).statusCode).toBe(401);
  });
});

describe("TRUST_PROXY naming the proxy's address", () => {
  const server = useTestServer({ limits: true, env: { TRUST_PROXY: "10.0.0.1" } });

  it("counts the forwarded client address when the request comes from the proxy", async () => {
    for (let i = 0; i < LOGIN_PER_IP; i++) {
      expect((await login(server, "10.0.0.1", "198.51.100.1")).statusCode).toBe(401);
    }
    expect((await login(server, "10.0.0.1", "198.51.100.1")).statusCode).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect((await login(server, "10.0.0.1", "198.51.100.2")).statusCode).toBe(401);
  });

  it("ignores X-Forwarded-For from any other peer", async () => {
    for (let i = 0; i < LOGIN_PER_IP; i++) {
      expect((await login(server, "203.0.113.9", `192.0.2.${i + 1}`)).statusCode).toBe(401);
    }
    expect((await login(server, "203.0.113.9", "192.0.2.99")).statusCode).toBe(429);
  });
});

describe("TRUST_PROXY as a hop count", () => {
  const server = useTestServer({ limits: true, env: { TRUST_PROXY: "1" } });

  it("takes the address the nearest proxy saw, not what the client wrote before it", async () => {
    for (let i = 0; i < LOGIN_PER_IP; i++) {
      expect((await login(server, "10.0.0.5", `1.2.3.${i + 1}, 198.51.100.50`)).statusCode).toBe(401);
    }
    expect((await login(server, "10.0.0.5", "9.9.9.9, 198.51.100.50")).statusCode).toBe(429);
    expect((await login(server, "10.0.0.5", "198.51.100.51")).statusCode).toBe(401);
  });
});

describe("parseTrustProxy", () => {
  it("reads unset/false, true, a hop count and address lists", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("")).toBe(false);
    expect(parseTrustProxy("false")).toBe(false);
    expect(parseTrustProxy("true")).toBe(true);
    expect(parseTrustProxy("2")).toBe(2);
    expect(parseTrustProxy("10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback,10.0.0.0/255.0.0.0")).toEqual([
      "10.0.0.1",
      "192.168.0.0/16",
      "::1",
      "fd00::/8",
      "loopback",
      "10.0.0.0/255.0.0.0",
    ]);
  });

  it("refuses what is not an address, a range, a count or a boolean", () => {
    expect(() => parseTrustProxy("yes")).toThrow(/TRUST_PROXY.*yes/);
    expect(() => parseTrustProxy("10.0.0.1,")).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy("10.0.0.0/33")).toThrow(/TRUST_PROXY.*10\.0\.0\.0\/33/);
    expect(() => parseTrustProxy("proxy.example.jp")).toThrow(/TRUST_PROXY/);
  });
});
