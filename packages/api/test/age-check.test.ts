import { adminAuditLog, idVerifications, users } from "@enmusubi/db";
import { MSG, yearsBefore } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * What an administrator vouches for (decision 0043): a member they create carries the ID's kind and
 * the birth date read from it (under 18 refused, nothing created); approving a submission needs the
 * birth date read from the ID (the stored one, or one given, which becomes the member's; under 18
 * refused, nothing changes).
 */

const root = `/tmp/enmusubi-age-check-test-${process.pid}`;
const api = useTestApi({ uploadsDir: `${root}/uploads` });
let admin: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "審査担当" });
});

const TABLES = ["users", "point_ledger", "admin_audit_log", "id_verifications", "mail_outbox"];
/** 17 years and 364 days old today: one day short of 18. */
const underAge = () => {
  const eighteen = yearsBefore(new Date(), 18);
  const next = new Date(`${eighteen}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
};
const userRow = async (id: string) => (await api.database.db.select().from(users).where(eq(users.id, id)))[0];
const auditOf = async (id: string, action: string) =>
  api.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetId, id), eq(adminAuditLog.action, action)));

async function idPhoto(): Promise<string> {
  const bytes = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#36a" } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

describe("an administrator's new member", () => {
  it("records the ID's kind and the birth date read from it: the birth date is the member's, the check the verification", async () => {
    const caller = api.caller(admin);
    const { userID, password } = await caller.auth.uniqueGenerate();
    const created = await caller.adminUsers.create({
      userID,
      password,
      name: "確認済み",
      email: `${userID}@example.jp`,
      ageCheck: { documentKind: "drivers_license", birthday: "1991-02-03" },
    });
    const row = await userRow(created.id);
    expect(row).toMatchObject({ birthday: "1991-02-03", verificationStatus: "verified" });
    expect(row?.verifiedAt).toBeInstanceOf(Date);
    const checks = await api.database.db.select().from(idVerifications).where(eq(idVerifications.userId, created.id));
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      status: "approved",
      reviewedBy: admin.id,
      imagePath: null,
      documentKind: "drivers_license",
      birthdayChecked: "1991-02-03",
    });
    const [audit] = await auditOf(created.id, "user.create");
    expect(audit?.details).toMatchObject({
      verificationStatus: "verified",
      ageCheck: { documentKind: "drivers_license", document: "運転免許証", birthday: "1991-02-03", adult: true },
    });
    // The check is not a submission waiting for review.
    const queue = await caller.adminVerification.queue({});
    expect(queue.entries.some((e) => e.user.id === created.id)).toBe(false);
  });

  it("refuses a birth date under 18, an impossible day and an unknown kind of document: nothing is created", async () => {
    const caller = api.caller(admin);
    const before = await snapshotTables(api, ...TABLES);
    const base = { userID: "minor1234", password: "secret1", name: "未成年", email: "minor1234@example.jp" };
    await expect(
      caller.adminUsers.create({ ...base, ageCheck: { documentKind: "passport", birthday: underAge() } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.idBirthdayUnderAge });
    await expect(
      caller.adminUsers.create({ ...base, ageCheck: { documentKind: "passport", birthday: "2001-02-29" } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.idBirthdayInvalid });
    await expect(
      caller.adminUsers.create({
        ...base,
        ageCheck: { documentKind: "library_card" as "other", birthday: "1990-01-01" },
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.idDocumentKindRequired });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("without an age check (the legacy body) the account is made as before, audited as no document recorded", async () => {
    const caller = api.caller(admin);
    const { userID, password } = await caller.auth.uniqueGenerate();
    const created = await caller.adminUsers.create({ userID, password, name: "旧形式", email: `${userID}@example.jp` });
    const row = await userRow(created.id);
    expect(row).toMatchObject({ birthday: null, verificationStatus: "verified" });
    expect(await api.database.db.select().from(idVerifications).where(eq(idVerifications.userId, created.id))).toEqual(
      [],
    );
    const [audit] = await auditOf(created.id, "user.create");
    expect(audit?.details).toMatchObject({ ageCheck: null, ageCheckNote: "書類の記録なし" });
  });
});

describe("approving a submission needs the birth date read from the ID", () => {
  it("with no birth date stored and none given, the approval is refused and nothing changes", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const { id } = await api.caller(member).verification.submit({ image: await idPhoto() });
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminVerification.approve({ id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.idBirthdayRequired,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    // Given, it becomes the member's birth date and is recorded on the review.
    await api.caller(admin).adminVerification.approve({ id, birthday: "1988-08-08" });
    expect(await userRow(member.id)).toMatchObject({ birthday: "1988-08-08", verificationStatus: "verified" });
    const [row] = await api.database.db.select().from(idVerifications).where(eq(idVerifications.id, id));
    expect(row).toMatchObject({ status: "approved", birthdayChecked: "1988-08-08" });
  });

  it("a birth date under 18 from the ID is refused, whether given or stored: nothing changes", async () => {
    const member = await api.createUser({ verificationStatus: "unverified", birthday: "1995-01-01" });
    const { id } = await api.caller(member).verification.submit({ image: await idPhoto() });
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminVerification.approve({ id, birthday: underAge() })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.idBirthdayUnderAge,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    // A stored birth date under 18 (written before the rule, by hand) is refused too.
    await api.database.db.update(users).set({ birthday: underAge() }).where(eq(users.id, member.id));
    const stored = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminVerification.approve({ id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.idBirthdayUnderAge,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(stored);
    expect(await userRow(member.id)).toMatchObject({ verificationStatus: "pending" });
  });

  it("the stored birth date stands when none is given; it is recorded as the one checked", async () => {
    const member = await api.createUser({ verificationStatus: "unverified", birthday: "1993-03-03" });
    const { id } = await api.caller(member).verification.submit({ image: await idPhoto() });
    await api.caller(admin).adminVerification.approve({ id });
    expect(await userRow(member.id)).toMatchObject({ birthday: "1993-03-03", verificationStatus: "verified" });
    const [audit] = await auditOf(member.id, "verification.approve");
    expect(audit?.details).toMatchObject({ birthdayChecked: "1993-03-03" });
    expect(audit?.details).not.toHaveProperty("birthday");
  });
});
