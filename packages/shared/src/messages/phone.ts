import { LOGIN_BONUS_MAX_POINTS, PHONE_VERIFICATION } from "../constants/phone";

/** Phone verification by SMS, the sign-up and login bonuses it gates (decision 0048; ours). */
export const PHONE_MSG = {
  phoneRequired: "携帯電話番号を入力してください。",
  phoneInvalid: "携帯電話番号は070・080・090で始まる11桁で入力してください（例：090-1234-5678）。",
  phoneTaken:
    "この電話番号は別のアカウントで確認済みのため、使用できません。1つの電話番号で確認できるアカウントは1つだけです。",
  phoneAlreadyVerified: "電話番号は確認済みです。番号を変更する場合はお問い合わせください。",
  phoneCodeSent: "確認コードをSMSで送信しました。届いた6桁のコードを入力してください。",
  phoneCodeRequired: "確認コードを入力してください。",
  phoneCodeFormat: `確認コードは${PHONE_VERIFICATION.codeDigits}桁の数字で入力してください。`,
  phoneCodeWrong: "確認コードが正しくありません。",
  phoneCodeDead:
    "確認コードの入力回数が上限に達したため、このコードは無効になりました。新しいコードを送信してください。",
  phoneCodeExpired: "確認コードの有効期限が切れています。新しいコードを送信してください。",
  phoneNoCode: "確認コードが送信されていません。先に電話番号を入力してコードを送信してください。",
  phoneResendWait: "確認コードの再送信はしばらくお待ちください。",
  phoneSendLimit: "確認コードの送信回数が上限に達しました。24時間ほど時間をおいてからお試しください。",
  phoneSmsFailed: "SMSを送信できませんでした。時間をおいてもう一度お試しください。",
  phoneVerified: "電話番号を確認しました。",
  phoneCleared: "電話番号の確認を解除しました。",
  phoneNotVerified: "この会員の電話番号は確認されていません。",
  loginBonusSaved: "ログインボーナスの設定を保存しました。",
  loginBonusRange: `ログインボーナスは0〜${LOGIN_BONUS_MAX_POINTS}ptの整数で入力してください（0で停止）。`,
} as const;

/** The wrong-code answer with the attempts left at that code. */
export const phoneCodeWrongLeft = (left: number) => `${PHONE_MSG.phoneCodeWrong}あと${left}回入力できます。`;

/** The resend refusal with the seconds still to wait. */
export const phoneResendWaitSeconds = (seconds: number) => `確認コードの再送信はあと${seconds}秒お待ちください。`;
