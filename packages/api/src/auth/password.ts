import { randomInt } from "node:crypto";

export interface PasswordHasher {
  hash(plain: string): Promise<string>;
  verify(hash: string, plain: string): Promise<boolean>;
}

/** The native argon2 binding, loaded by the first hash or check rather than by every process at start. */
let argon2: Promise<typeof import("argon2")> | undefined;
const loadArgon2 = () => {
  argon2 ??= import("argon2");
  return argon2;
};

/** argon2id; tests pass a lower cost so the suite stays fast (never used outside tests). */
export function createPasswordHasher(cost: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const options = { memoryCost: cost.memoryCost ?? 19456, timeCost: cost.timeCost ?? 2 };
  return {
    async hash(plain) {
      const lib = await loadArgon2();
      return lib.hash(plain, { ...options, type: lib.argon2id });
    },
    async verify(hash, plain) {
      // Outside the try: a binding that fails to load is an error, not a wrong password.
      const lib = await loadArgon2();
      try {
        return await lib.verify(hash, plain);
      } catch {
        return false;
      }
    },
  };
}

// Letters and digits that cannot be mistaken for one another when read from an email.
const LOWER = "abcdefghjkmnpqrstuvwxyz";
const UPPER = "ABCDEFGHJKMNPQRSTUVWXYZ";
const DIGITS = "23456789";

function pick(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A login ID: a lowercase letter then 7 lowercase letters or digits, e.g. `k7m2q9xp`. */
export function generateUserId(): string {
  return pick(LOWER, 1) + pick(LOWER + DIGITS, 7);
}

/** A 10-character password with at least one lowercase letter, one uppercase letter and one digit. */
export function generatePassword(): string {
  const chars = [...pick(LOWER, 1), ...pick(UPPER, 1), ...pick(DIGITS, 1), ...pick(LOWER + UPPER + DIGITS, 7)];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join("");
}
