/** The legal fee table (spec §9) and the actions the code names. */

/** The cost an action added by an administrator starts with when none is given. */
export const DEFAULT_NEW_POINT_COST = 5;

/** Actions the legacy client names explicitly (spec §3 "Point cost"). */
export const KNOWN_ACTIONS = {
  profileView: "profile_view",
  sendMessage: "send_message",
  messageBoardView: "message_board_view",
} as const;

export interface PointCostSeed {
  actionName: string;
  displayName: string;
  /** Initial fee of the legal table: the seeded cost and the ceiling a cost may never exceed. */
  initialFee: number;
  /** Used by the client when the cost list cannot be fetched (spec §9 fallback table). */
  fallbackCost: number;
  description: string;
  /**
   * Charged by the product today (a paid procedure or the scheduled batch charges it): only these
   * are listed to members as prices (the points usage page, the terms, 特商法, the legacy list).
   * The other rows stay for the administrators, marked as not offered (docs/decisions/0026).
   */
  offered: boolean;
}

/** The twelve rows of the legal initial fee table (spec §9), in the order the legal text lists them. */
const POINT_COST_ROWS = [
  {
    actionName: "message_board_view",
    displayName: "掲示板閲覧",
    initialFee: 10,
    fallbackCost: 5,
    description: "掲示板を開いたときに消費されます。",
    offered: true,
  },
  {
    actionName: "profile_view",
    displayName: "プロフィール閲覧",
    initialFee: 15,
    fallbackCost: 5,
    description: "他の会員のプロフィール詳細を開いたときに消費されます。",
    offered: true,
  },
  {
    actionName: "send_message",
    displayName: "通常メッセージ送信",
    initialFee: 48,
    fallbackCost: 0,
    description: "会員へメッセージを1通送るごとに消費されます。管理者への返信は無料です。",
    offered: true,
  },
  {
    actionName: "message_board_post",
    displayName: "掲示板投稿",
    initialFee: 15,
    fallbackCost: 0,
    description: "掲示板に投稿したときに消費されます。",
    offered: true,
  },
  {
    actionName: "address_mail_send",
    displayName: "アドレスメール送信",
    initialFee: 48,
    fallbackCost: 1000,
    description: "アドレスメールを送信したときに消費されます。",
    offered: false,
  },
  {
    actionName: "address_mail_view",
    displayName: "アドレスメール閲覧",
    initialFee: 20,
    fallbackCost: 500,
    description: "アドレスメールを閲覧したときに消費されます。",
    offered: false,
  },
  {
    actionName: "unread_mail_view",
    displayName: "未読メッセージ閲覧",
    initialFee: 20,
    fallbackCost: 0,
    description: "未読メッセージを開いたときに消費されます。",
    offered: true,
  },
  {
    actionName: "read_mail_view",
    displayName: "既読メッセージ閲覧",
    initialFee: 0,
    fallbackCost: 0,
    description: "既読メッセージの再閲覧は無料です。",
    offered: true,
  },
  {
    actionName: "profile_photo_view",
    displayName: "プロフィール写真閲覧",
    initialFee: 20,
    fallbackCost: 0,
    description: "プロフィール写真を拡大表示したときに消費されます。",
    offered: true,
  },
  {
    actionName: "mail_attachment_photo_view",
    displayName: "メッセージ添付写真閲覧",
    initialFee: 50,
    fallbackCost: 0,
    description: "メッセージに添付された写真を閲覧したときに消費されます。",
    offered: false,
  },
  {
    actionName: "photo_registration",
    displayName: "写真登録",
    initialFee: 50,
    fallbackCost: 5,
    description: "プロフィール写真を登録したときに消費されます。",
    offered: false,
  },
  {
    actionName: "movie_play",
    displayName: "動画再生",
    initialFee: 500,
    fallbackCost: 0,
    description: "動画を再生したときに消費されます。",
    offered: false,
  },
] as const satisfies readonly PointCostSeed[];

export const POINT_COST_TABLE: readonly PointCostSeed[] = POINT_COST_ROWS;

/** The actions members are shown a price for: exactly those the product charges (see `offered`). */
export const OFFERED_ACTIONS: ReadonlySet<string> = new Set(
  POINT_COST_ROWS.filter((row) => row.offered).map((row) => row.actionName),
);

/** The name of a point-cost action, from the table above: a paid procedure names one (a typo does not compile). */
export type PointAction = (typeof POINT_COST_ROWS)[number]["actionName"];
