import { formatPoints } from "../../lib/format";

/** The phone verification screens' text catalogue (decision 0048). */
export const PHONE_TEXT = {
  title: "電話番号認証",
  loadFailed: "電話番号認証の状態を読み込めませんでした。",
  unlocksTitle: "電話番号認証でできること",
  signupBonus: (points: number) => `登録特典 ${formatPoints(points)}（無料ポイント・1アカウント1回）`,
  signupBonusDone: "登録特典は受け取り済みです",
  loginBonus: (points: number) =>
    `毎日のログインボーナス ${formatPoints(points)}（1日1回、日本時間の0時に切り替わります）`,
  loginBonusOff: "ログインボーナス（実施中の期間に、1日1回）",
  oneNumber:
    "1つの電話番号で認証できるアカウントは1つだけです。番号はSMSの送信と本人確認にだけ使い、他の会員に表示されることはありません。",
  freeValidity: (days: number) => `無料ポイントの有効期限は付与日から${days}日間です。`,
  verified: "認証済み",
  verifiedAt: "認証日時",
  number: "電話番号",
  numberLabel: "携帯電話番号",
  numberHint: "070・080・090で始まる番号（ハイフンなしでも入力できます）",
  send: "確認コードを送信",
  codeLabel: "確認コード（6桁）",
  codeSentTo: (phone: string) => `${phone} にSMSで送信した6桁の確認コードを入力してください。`,
  codeValidity: (minutes: number, attempts: number) =>
    `コードの有効期限は${minutes}分、入力できるのは${attempts}回までです。`,
  attemptsLeft: (n: number) => `あと${n}回入力できます`,
  confirm: "認証する",
  resend: "コードを再送信",
  resendIn: (seconds: number) => `再送信まであと${seconds}秒`,
  changeNumber: "電話番号を変更する",
  notArrived:
    "SMSが届かない場合は、番号に誤りがないか、SMSの受信拒否設定をご確認のうえ、しばらくしてから再送信してください。",
  dashboardTitle: "電話番号認証がまだです",
  dashboardBody: (signupPoints: number | null, loginPoints: number) =>
    [
      signupPoints ? `認証すると登録特典${formatPoints(signupPoints)}を差し上げます。` : "",
      loginPoints > 0 ? `認証済みの方には毎日のログインボーナス（${formatPoints(loginPoints)}）があります。` : "",
    ]
      .filter(Boolean)
      .join("") || "SMSで携帯電話番号を認証してください。",
  dashboardAction: "電話番号を認証する",
} as const;
