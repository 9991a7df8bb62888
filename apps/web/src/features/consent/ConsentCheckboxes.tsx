import { Anchor, Checkbox } from "@mantine/core";
import { Link } from "react-router-dom";

interface Props {
  acceptTerms: boolean;
  adult: boolean;
  onAcceptTerms: (checked: boolean) => void;
  onAdult: (checked: boolean) => void;
  termsError?: string | null;
  adultError?: string | null;
  disabled?: boolean;
  /** 「ご登録」 at sign-up, 「ご利用」 at the first sign-in. */
  act: "ご登録" | "ご利用";
}

/**
 * The two boxes a member ticks to join (decision 0034): consent to the terms and the privacy policy
 * (each linked, opened in a new tab) and the declaration of being 18 or older. Both start unticked;
 * the sign-up screen and the first-sign-in gate show the same two.
 */
export function ConsentCheckboxes({
  acceptTerms,
  adult,
  onAcceptTerms,
  onAdult,
  termsError,
  adultError,
  disabled,
  act,
}: Props) {
  return (
    <>
      <Checkbox
        label={
          <>
            <Anchor component={Link} to="/legal/terms-of-service" target="_blank">
              利用規約
            </Anchor>
            と
            <Anchor component={Link} to="/legal/privacy-policy" target="_blank">
              プライバシーポリシー
            </Anchor>
            に同意します
          </>
        }
        checked={acceptTerms}
        onChange={(e) => onAcceptTerms(e.currentTarget.checked)}
        disabled={disabled}
        error={termsError}
      />
      <Checkbox
        label={`18歳以上です（高校生の方は${act}いただけません）`}
        checked={adult}
        onChange={(e) => onAdult(e.currentTarget.checked)}
        disabled={disabled}
        error={adultError}
      />
    </>
  );
}
