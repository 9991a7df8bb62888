import { adminAuditLog, users } from "@enmusubi/db";
import { MSG, yearsBefore } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Decision 0043 over HTTP: POST /api/admin/users takes the age check (or the legacy body without
 * it, audited as no document recorded); POST /api/admin/verifications/:id/approve takes the birth
 * date read from the ID. An age under 18 is a 400 in Japanese and nothing changes.
 */

const server = useTestServer();
let admin: RestUser;
const TABLES = ["users", "point_ledger", "admin_audit_log", "id_verifications", "mail_outbox"];

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
});

const underAge = () => {
  const day = new Date(`${yearsBefore(new Date(), 18)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
};
const credentials = async () =>
  (await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: admin })).json<{
    userID: string;
    password: string;
  }>();
const createAudit = async (id: string) =>
  (
    await server.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, id), eq(adminAuditLog.action, "user.create")))
  )[0]?.details;

describe("POST /api/admin/users and the age check", () => {
  it("with an age check: the birth date read from the ID is the member's, the audit row names the document", async () => {
    const creds = await credentials();
    const res = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: {
        ...creds,
        name: "書類あり",
        email: "rest-age-check@example.jp",
        ageCheck: { documentKind: "my_number_card", birthday: "1990-12-24" },
      },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json<{ _id: string }>()._id;
    const [row] = await server.database.db.select().from(users).where(eq(users.id, id));
    expect(row).toMatchObject({ birthday: "1990-12-24", verificationStatus: "verified" });
    expect(await createAudit(id)).toMatchObject({
      ageCheck: { documentKind: "my_number_card", document: "マイナンバーカード", birthday: "1990-12-24" },
    });
  });

  it("the legacy body without one still creates the account; its audit row says no document was recorded", async () => {
    const creds = await credentials();
    const res = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: { ...creds, name: "旧形式", email: "rest-legacy-create@example.jp", points: "100", sendPoints: 20 },
    });
    expect(res.statusCode).toBe(201);
    expect(await createAudit(res.json<{ _id: string }>()._id)).toMatchObject({
      ageCheck: null,
      ageCheckNote: "書類の記録なし",
    });
  });

  it("under 18 on the ID, or a kind of document not on the list: 400 in Japanese, nothing created", async () => {
    const creds = await credentials();
    const before = await snapshotTables(server, ...TABLES);
    const base = { ...creds, name: "未成年", email: "rest-minor@example.jp" };
    const minor = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: { ...base, ageCheck: { documentKind: "passport", birthday: underAge() } },
    });
    expect(minor.statusCode).toBe(400);
    expect(minor.json()).toEqual({ message: MSG.idBirthdayUnderAge });
    const kind = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: { ...base, ageCheck: { documentKind: "student_card", birthday: "1990-01-01" } },
    });
    expect(kind.statusCode).toBe(400);
    expect(kind.json()).toEqual({ message: MSG.idDocumentKindRequired });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});

describe("POST /api/admin/verifications/:id/approve and the birth date", () => {
  it("an age under 18 read from the ID is refused and nothing changes; an adult's is taken", async () => {
    const member = await server.createUser({ verificationStatus: "unverified", birthday: "1999-09-09" });
    const bytes = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#a63" } })
      .jpeg()
      .toBuffer();
    const submit = await server.request({
      method: "POST",
      url: "/api/verification",
      as: member,
      payload: { image: `data:image/jpeg;base64,${bytes.toString("base64")}` },
    });
    expect(submit.statusCode).toBe(201);
    const queue = await server.request({ method: "GET", url: "/api/admin/verifications?limit=100", as: admin });
    const entry = queue
      .json<{ verifications: Array<{ _id: string; user: { _id: string } }> }>()
      .verifications.find((v) => v.user._id === member.id);
    const url = `/api/admin/verifications/${entry?._id}/approve`;
    const before = await snapshotTables(server, ...TABLES);
    const minor = await server.request({ method: "POST", url, as: admin, payload: { birthday: underAge() } });
    expect(minor.statusCode).toBe(400);
    expect(minor.json()).toEqual({ message: MSG.idBirthdayUnderAge });
    const impossible = await server.request({ method: "POST", url, as: admin, payload: { birthday: "1999-02-30" } });
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json()).toEqual({ message: MSG.idBirthdayInvalid });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
    // Without a birth date the stored one is the one checked.
    const ok = await server.request({ method: "POST", url, as: admin });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: "verified" });
  });
});
