import { MSG, type ProfileUpdateInput } from "@enmusubi/shared";
import type { RuleSet } from "./matcher";
import { refuseIfRefused, ScreeningRefusal } from "./screen";

/**
 * A member's profile texts screened before the update (decision 0042). The ニックネーム is shown on
 * every card and cannot be masked or wait, so any matching rule refuses it (naming nothing but the
 * field). The 自己紹介 follows the rules: refused, or masked; a `hold` needs nothing more, since
 * every changed 自己紹介 waits for the profile review before other members see it. Administrators'
 * own profiles are not screened (the caller's choice).
 */
export function screenProfileInput(rules: RuleSet, userId: string, input: ProfileUpdateInput): ProfileUpdateInput {
  if (input.name) {
    const name = rules.screen(input.name);
    if (name.action !== "pass")
      throw new ScreeningRefusal(userId, name.category ?? "other", "profile", MSG.screeningNameRefused);
  }
  if (!input.selfIntroduction) return input;
  const intro = rules.screen(input.selfIntroduction);
  refuseIfRefused(intro, userId, "profile");
  return intro.action === "pass" ? input : { ...input, selfIntroduction: intro.text };
}
