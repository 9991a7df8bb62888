import { MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/** The settings rows over HTTP (decision 0033): answers held to the OpenAPI document, refusals change nothing. */
const server = useTestServer();
let member: RestUser;
let other: RestUser;

beforeAll(async () => {
  member = await server.createUser();
  other = await server.createUser();
});

describe("notice-mail setting and stop link", () => {
  it("is on by default, turns off and on", async () => {
    const get = await server.request({ method: "GET", url: "/api/account/notice-mail", as: member });
    expect(get.json()).toEqual({ enabled: true });
    const off = await server.request({
      method: "PUT",
      url: "/api/account/notice-mail",
      as: member,
      payload: { enabled: false },
    });
    expect(off.json()).toEqual({ enabled: false, message: MSG.noticeMailOff });
    const on = await server.request({
      method: "PUT",
      url: "/api/account/notice-mail",
      as: member,
      payload: { enabled: true },
    });
    expect(on.json()).toEqual({ enabled: true, message: MSG.noticeMailOn });
  });

  it("refuses a bad setting, a bad stop link and an anonymous setting: 4xx, nothing changed", async () => {
    const before = await snapshotTables(server, "message_notices");
    const bad = await server.request({
      method: "PUT",
      url: "/api/account/notice-mail",
      as: member,
      payload: { enabled: "no" },
    });
    expect(bad.statusCode).toBe(400);
    const stop = await server.request({
      method: "POST",
      url: "/api/account/notice-mail/stop",
      payload: { token: "abc.def.ghi" },
    });
    expect(stop.statusCode).toBe(400);
    expect(stop.json().message).toBe(MSG.noticeStopInvalid);
    const empty = await server.request({ method: "POST", url: "/api/account/notice-mail/stop", payload: {} });
    expect(empty.statusCode).toBe(400);
    const anonymous = await server.request({
      method: "PUT",
      url: "/api/account/notice-mail",
      payload: { enabled: false },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshotTables(server, "message_notices")).toEqual(before);
  });
});

describe("e-mail change", () => {
  it("queues a confirmation and refuses a taken address or a wrong password with 4xx, nothing changed", async () => {
    const ok = await server.request({
      method: "POST",
      url: "/api/account/email",
      as: member,
      payload: { newEmail: "fresh@example.jp", currentPassword: member.password },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ message: MSG.emailChangeSent });
    const before = await snapshotTables(server, "users", "email_changes", "mail_outbox");
    const taken = await server.request({
      method: "POST",
      url: "/api/account/email",
      as: member,
      payload: { newEmail: `${other.userID}@example.jp`, currentPassword: member.password },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(MSG.emailInUse);
    const wrong = await server.request({
      method: "POST",
      url: "/api/account/email",
      as: member,
      payload: { newEmail: "fresh2@example.jp", currentPassword: "nope-nope" },
    });
    expect(wrong.statusCode).toBe(400);
    const confirm = await server.request({
      method: "POST",
      url: "/api/account/email/confirm",
      payload: { token: "bogus" },
    });
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json().message).toBe(MSG.emailChangeInvalid);
    expect(await snapshotTables(server, "users", "email_changes", "mail_outbox")).toEqual(before);
  });
});
