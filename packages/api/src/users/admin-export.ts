import { annualIncomes, type Db, occupations, users } from "@enmusubi/db";
import { type AdminUserExportInput, adminUserExportInput, adminUserExportPageInput } from "@enmusubi/shared";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { csvField } from "../lists/csv";
import { userSelection } from "./admin-list";

/**
 * Members as CSV for Excel (decision 0036): the user list's filter, every page,
 * newest first. UTF-8 with a BOM, CRLF line ends, Japanese headings. The export is written to the
 * audit log (who, when, which filter) when it starts. The columns are what an administrator
 * already sees on the list and the edit form, e-mail and birthday included; never the password
 * hash, a token, an ID image or its path, nor the photo.
 */

export const EXPORT_PAGE_SIZE = 1000;

export const CSV_HEADINGS = [
  "ユーザーID",
  "名前",
  "メールアドレス",
  "性別",
  "生年月日",
  "住所",
  "職業",
  "年収",
  "ポイント",
  "送信ポイント",
  "年齢確認",
  "利用停止",
  "権限",
  "登録日時",
] as const;

const GENDER = { male: "男性", female: "女性" } as const;
const VERIFICATION = { unverified: "未確認", pending: "確認待ち", verified: "確認済み", rejected: "却下" } as const;
const ROLE = { user: "会員", admin: "管理者" } as const;

/** 2026-11-26 21:05:09 in Japan time. */
function japanTime(at: Date): string {
  return new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
}

const exportColumns = {
  id: users.id,
  userID: users.userId,
  name: users.name,
  email: users.email,
  gender: users.gender,
  birthday: users.birthday,
  address: users.address,
  occupation: occupations.name,
  annualIncome: annualIncomes.label,
  points: users.points,
  sendPoints: users.sendPoints,
  verificationStatus: users.verificationStatus,
  suspendedAt: users.suspendedAt,
  role: users.role,
  createdAt: users.createdAt,
};

/** The audit row of an export, and the CSV's first line (the BOM and the headings). */
export async function startUsersExport(db: Db, adminId: string, raw: AdminUserExportInput): Promise<string> {
  const input = adminUserExportInput.parse(raw);
  await writeAudit(db, {
    adminId,
    action: "user.export",
    targetType: "user",
    details: { field: input.field, search: input.search, q: input.q },
  });
  return `\uFEFF${CSV_HEADINGS.join(",")}\r\n`;
}

/** Up to EXPORT_PAGE_SIZE members after `after`, as CSV lines, and where the next page starts. */
export async function usersExportPage(db: Db, raw: unknown) {
  const input = adminUserExportPageInput.parse(raw);
  const { where } = await userSelection(db, input);
  // The last row sent is named by its id and read back (created_at keeps microseconds a JS Date
  // would round away).
  const after: SQL | undefined = input.after
    ? sql`(${users.createdAt}, ${users.id}) < (select c.created_at, c.id from ${users} c where c.id = ${input.after})`
    : undefined;
  const rows = await db
    .select(exportColumns)
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(where, after))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(EXPORT_PAGE_SIZE);
  const csv = rows
    .map((r) =>
      [
        csvField(r.userID),
        csvField(r.name),
        csvField(r.email),
        GENDER[r.gender],
        csvField(r.birthday),
        csvField(r.address),
        csvField(r.occupation),
        csvField(r.annualIncome),
        csvField(r.points, false),
        csvField(r.sendPoints, false),
        VERIFICATION[r.verificationStatus],
        r.suspendedAt ? "停止中" : "",
        ROLE[r.role],
        japanTime(r.createdAt),
      ].join(","),
    )
    .map((line) => `${line}\r\n`)
    .join("");
  const last = rows.at(-1);
  return {
    csv,
    rows: rows.length,
    next: rows.length === EXPORT_PAGE_SIZE && last ? last.id : null,
  };
}
