import { annualIncomes, type Db, favorites, occupations, users } from "@enmusubi/db";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import { fullSizeUrl, type PhotoUrlSigner } from "../photos/signed-url";

/** The occupation and income an account chose, as joined columns (see `joinReferences`). */
export const referenceColumns = {
  occupationId: occupations.id,
  occupationName: occupations.name,
  annualIncomeId: annualIncomes.id,
  annualIncomeLabel: annualIncomes.label,
};

type ReferenceRow = { [K in keyof typeof referenceColumns]: string | null };

/** The joined reference columns as the two objects every view shows. */
export function toReferences(row: ReferenceRow) {
  const { occupationId, occupationName, annualIncomeId, annualIncomeLabel } = row;
  return {
    occupation: occupationId && occupationName !== null ? { id: occupationId, name: occupationName } : null,
    annualIncome:
      annualIncomeId && annualIncomeLabel !== null ? { id: annualIncomeId, label: annualIncomeLabel } : null,
  };
}

/**
 * The account fields a client may see (spec §3 User). Declared column by column so a password
 * hash or token version can never leak.
 */
export const userColumns = {
  id: users.id,
  userID: users.userId,
  name: users.name,
  email: users.email,
  role: users.role,
  gender: users.gender,
  points: users.points,
  sendPoints: users.sendPoints,
  photoLink: users.photoLink,
  birthday: users.birthday,
  address: users.address,
  ...referenceColumns,
  createdAt: users.createdAt,
};

type UserRowView = Awaited<ReturnType<typeof selectUsers>>[number];

export interface UserView {
  id: string;
  userID: string;
  name: string | null;
  email: string;
  role: "user" | "admin";
  gender: "male" | "female";
  points: number;
  sendPoints: number;
  photoLink: string | null;
  birthday: string | null;
  address: string | null;
  occupation: { id: string; name: string } | null;
  annualIncome: { id: string; label: string } | null;
  createdAt: Date;
}

/**
 * The view with `photoUrl`: the full-size photo's short-lived signed URL (decision 0028), for the
 * screens that show it free: the account's own profile and the administrators' screens. `photoLink`
 * stays the stored link (an identifier an edit may keep), which is not served without a signature.
 */
export function withPhotoUrl<T extends { photoLink: string | null }>(
  signer: PhotoUrlSigner,
  view: T,
): T & { photoUrl: string | null } {
  // Every caller passes a view it has just made: completed in place, not copied (the admin list
  // draws 50 a page, decision 0037).
  const withUrl = view as T & { photoUrl: string | null };
  withUrl.photoUrl = fullSizeUrl(signer, view.photoLink);
  return withUrl;
}

/**
 * A row of `userColumns` as the view. Field by field: an object rest (`...rest`) copies through
 * V8's slow path, and the admin list draws 50 of these a page (decision 0037).
 */
export function toUserView(row: UserRowView): UserView {
  const { occupation, annualIncome } = toReferences(row);
  return {
    id: row.id,
    userID: row.userID,
    name: row.name,
    email: row.email,
    role: row.role,
    gender: row.gender,
    points: row.points,
    sendPoints: row.sendPoints,
    photoLink: row.photoLink,
    birthday: row.birthday,
    address: row.address,
    occupation,
    annualIncome,
    createdAt: row.createdAt,
  };
}

/** Live (not deleted) users matching `where`, in the public shape. */
export function selectUsers(db: Db, where?: SQL) {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(isNull(users.deletedAt), where))
    .$dynamic();
}

export async function getUserView(db: Db, id: string): Promise<UserView | null> {
  const [row] = await selectUsers(db, eq(users.id, id));
  return row ? toUserView(row) : null;
}

/** The current member's own view: the public fields plus the ids they have favourited. */
export async function getOwnUserView(db: Db, id: string): Promise<(UserView & { favoriteUserIds: string[] }) | null> {
  const view = await getUserView(db, id);
  if (!view) return null;
  const favs = await db
    .select({ id: favorites.favoriteUserId })
    .from(favorites)
    .innerJoin(users, and(eq(users.id, favorites.favoriteUserId), isNull(users.deletedAt)))
    .where(eq(favorites.userId, id));
  return { ...view, favoriteUserIds: favs.map((f) => f.id) };
}
