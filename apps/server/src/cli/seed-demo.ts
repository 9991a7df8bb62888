import { createPasswordHasher } from "@enmusubi/api";
import { users } from "@enmusubi/db";
import { and, eq, isNull } from "drizzle-orm";
import { loadConfig } from "../config";
import { openDatabase } from "../database";
import { seedDemo } from "./demo-data";
import { exitWithFatalError } from "./fatal";

/**
 * `pnpm seed:demo`: adds the demo members and content (see demo-data.ts) to the configured
 * database, migrating it first, and prints the credentials. Safe to run again: nothing is added twice.
 * Stop the server first when it uses the embedded database (one process per DATA_DIR).
 */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const result = await seedDemo(database.db, createPasswordHasher());
    const admins = await database.db
      .select({ userID: users.userId })
      .from(users)
      .where(and(eq(users.role, "admin"), isNull(users.deletedAt)));

    const out: string[] = [];
    const added = result.created.length + result.messages + result.posts + result.inquiries;
    out.push(
      added === 0
        ? "Demo data is already present; nothing was added."
        : `Added ${result.created.length} demo members, ${result.messages} messages, ${result.posts} board posts and ${result.inquiries} inquiries.`,
    );
    out.push("", "  userID   password   gender  name");
    out.push("  -------  ---------  ------  ----------------");
    for (const m of result.members) {
      out.push(`  ${m.userID.padEnd(7)}  ${m.password.padEnd(9)}  ${m.gender.padEnd(6)}  ${m.name}`);
    }
    out.push("");
    if (admins.length > 0) {
      out.push(
        `Administrator: log in as ${admins.map((a) => a.userID).join(", ")} with the password set at first start.`,
      );
    } else {
      out.push(
        "Administrator: none yet. Set ADMIN_USERID and ADMIN_PASSWORD and run `pnpm start`, or start once",
        "without them and note the generated credentials the server prints.",
      );
    }
    process.stdout.write(`${out.join("\n")}\n`);
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => exitWithFatalError(error, "Seeding the demo data failed"),
);
