import { readFileSync } from "node:fs";
import path from "node:path";
import { migrationsFolder, pointCosts } from "@enmusubi/db";
import { POINT_COST_TABLE } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApi } from "./helpers";

/**
 * One vocabulary (decision 0032): the price list says メッセージ for members' mail. A new database
 * is seeded so; an existing one is renamed by the data migration 0032_price_list_message_names,
 * which leaves a name an administrator chose alone.
 */
const api = useTestApi();

const namesOf = async () =>
  Object.fromEntries(
    (await api.database.db.select().from(pointCosts)).map((r) => [r.actionName, [r.displayName, r.description]]),
  );

describe("the price list's names (decision 0032)", () => {
  it("a new database: メッセージ, never メール for members' mail", async () => {
    const names = await namesOf();
    expect(names.send_message?.[0]).toBe("通常メッセージ送信");
    expect(names.unread_mail_view).toEqual(["未読メッセージ閲覧", "未読メッセージを開いたときに消費されます。"]);
    expect(names.read_mail_view).toEqual(["既読メッセージ閲覧", "既読メッセージの再閲覧は無料です。"]);
    expect(names.mail_attachment_photo_view?.[0]).toBe("メッセージ添付写真閲覧");
    for (const row of POINT_COST_TABLE.filter((r) => !r.actionName.startsWith("address_mail"))) {
      expect(`${row.displayName} ${row.description}`).not.toContain("メール");
    }
  });

  it("the migration renames the seeded names of an existing database and keeps an administrator's", async () => {
    const db = api.database.db;
    const old: Record<string, [string, string]> = {
      send_message: ["通常メール送信", "会員へメッセージを1通送るごとに消費されます。管理者への返信は無料です。"],
      unread_mail_view: ["未読メール閲覧", "未読メールを開いたときに消費されます。"],
      read_mail_view: ["既読メール閲覧", "既読メールの再閲覧は無料です。"],
      mail_attachment_photo_view: ["うちの添付写真", "メールに添付された写真を閲覧したときに消費されます。"],
    };
    for (const [actionName, [displayName, description]] of Object.entries(old)) {
      await db.update(pointCosts).set({ displayName, description }).where(eq(pointCosts.actionName, actionName));
    }
    const file = readFileSync(path.join(migrationsFolder, "0032_price_list_message_names.sql"), "utf8");
    for (const statement of file.split("--> statement-breakpoint")) await db.execute(sql.raw(statement));
    const names = await namesOf();
    expect(names.send_message?.[0]).toBe("通常メッセージ送信");
    expect(names.unread_mail_view).toEqual(["未読メッセージ閲覧", "未読メッセージを開いたときに消費されます。"]);
    expect(names.read_mail_view).toEqual(["既読メッセージ閲覧", "既読メッセージの再閲覧は無料です。"]);
    // The administrator's own name stays; the untouched seeded description is renamed.
    expect(names.mail_attachment_photo_view).toEqual([
      "うちの添付写真",
      "メッセージに添付された写真を閲覧したときに消費されます。",
    ]);
  });
});
