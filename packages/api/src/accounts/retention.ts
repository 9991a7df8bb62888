import { type Db, idVerifications, rowsOf, users } from "@enmusubi/db";
import { LEGAL } from "@enmusubi/shared";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { releasePhoto } from "../photos/service";
import { withdrawAllChanges } from "../profile-review/changes";
import { deleteIdImage } from "../verification/storage";

/*
 * The end of the retention after 退会 (privacy policy: account data LEGAL.accountRetentionYears
 * after withdrawal; decision 0034). The job deletes the personal data of members whose retention
 * has ended: name, e-mail (replaced by an address that cannot receive mail, the column being
 * required), birthday, prefecture, 自己紹介, the password, the photo files and any ID image. The
 * row itself stays, so ledger rows, lots, messages and audit entries keep pointing at it: they stay,
 * pseudonymous (the account's id and generated login ID identify nobody).
 */

export interface RetentionRun {
  members: number;
}

export async function purgeWithdrawn(
  deps: { db: Db; uploadsDir: string },
  now = new Date(),
  batch = 100,
): Promise<RetentionRun> {
  const { purged, files, photos } = await deps.db.transaction(async (tx) => {
    const due = await rowsOf<{ id: string; photoLink: string | null }>(
      tx,
      sql`select id, photo_link as "photoLink" from ${users}
          where withdrawn_at is not null and personal_data_deleted_at is null
            and withdrawn_at <= ${now.toISOString()}::timestamptz - make_interval(years => ${LEGAL.accountRetentionYears})
          order by withdrawn_at limit ${batch}
          for update skip locked`,
    );
    const images: Array<string | null> = [];
    const photos: Array<string | null> = [];
    for (const user of due) {
      await tx
        .update(users)
        .set({
          name: null,
          email: `withdrawn-${user.id}@deleted.invalid`,
          birthday: null,
          address: null,
          selfIntroduction: "",
          photoLink: null,
          passwordHash: "!",
          pendingPasswordHash: null,
          pendingPasswordExpiresAt: null,
          // The verified number is personal data too: it frees for another account now (decision 0048).
          phoneNumber: null,
          phoneVerifiedAt: null,
          personalDataDeletedAt: now,
        })
        .where(eq(users.id, user.id));
      // Photo and 自己紹介 changes: withdrawn if still waiting, and their texts and links blanked (decision 0044).
      photos.push(user.photoLink, ...(await withdrawAllChanges(tx, user.id, { purge: true })));
      const held = and(eq(idVerifications.userId, user.id), isNotNull(idVerifications.imagePath));
      const paths = await tx.select({ path: idVerifications.imagePath }).from(idVerifications).where(held);
      await tx.update(idVerifications).set({ imagePath: null, imageDeletedAt: now }).where(held);
      // The birth date read from the ID is personal data too (decision 0043); the kind and the outcome stay.
      await tx.update(idVerifications).set({ birthdayChecked: null }).where(eq(idVerifications.userId, user.id));
      images.push(...paths.map((p) => p.path));
    }
    return { purged: due, files: images, photos };
  });
  // Files go once the rows no longer point at them (a failure here leaves an orphan the photo sweep finds).
  for (const link of photos) await releasePhoto(deps, link);
  for (const image of files) await deleteIdImage(deps.uploadsDir, image);
  return { members: purged.length };
}
