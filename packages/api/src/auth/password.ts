import { randomInt } from "node:crypto";
import argon2 from "argon2";

export interface PasswordHasher {
  hash(plain: string): Promise<string>;
  verify(hash: string, plain: string): Promise<boolean>;
}

/** argon2id; tests pass a lower cost so the suite stays fast (never used outside tests). */
export function createPasswordHasher(cost: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const options = { type: argon2.argon2id, memoryCost: cost.memoryCost ?? 19456, timeCost: cost.timeCost ?? 2 };
  return {
    hash: (plain) => argon2.hash(plain, options),
    async verify(hash, plain) {
      try {
        return await argon2.verify(hash, plain);
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
