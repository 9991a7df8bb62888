import type { ComponentType } from "react";
import { Dashboard } from "./Dashboard";
import { lazyScreen as section } from "./lazy-screen";

/**
 * Every section but the dashboard is a chunk of its own, loaded when its route is opened: the
 * first page after login (the dashboard) then evaluates only the shell and itself instead of every
 * screen, its dialogs, the date pickers and the emoji data (decision 0011).
 */
const ProfileSettings = section(() => import("./settings/ProfileSettings"), "ProfileSettings");
const ProfileSearch = section(() => import("./discovery/ProfileSearch"), "ProfileSearch");
const FavoriteList = section(() => import("./discovery/FavoriteList"), "FavoriteList");
const Footprints = section(() => import("./discovery/Footprints"), "Footprints");
const BlockedList = section(() => import("./safety/BlockedList"), "BlockedList");
const Messages = section(() => import("./conversations/Messages"), "Messages");
const UnreadEmails = section(() => import("./mail/UnreadEmails"), "UnreadEmails");
const ReceivedEmails = section(() => import("./mail/ReceivedEmails"), "ReceivedEmails");
const SentEmails = section(() => import("./mail/SentEmails"), "SentEmails");
const MyPosts = section(() => import("./board/MyPosts"), "MyPosts");
const BoardSearch = section(() => import("./board/BoardSearch"), "BoardSearch");
const InquiryForm = section(() => import("./inquiry/InquiryForm"), "InquiryForm");
const InquiryHistory = section(() => import("./inquiry/InquiryHistory"), "InquiryHistory");
const PointsUsage = section(() => import("./PointsUsage"), "PointsUsage");
const PointPurchase = section(() => import("./purchase/PointPurchase"), "PointPurchase");
const VerificationPage = section(() => import("./verification/VerificationPage"), "VerificationPage");
const PhoneVerificationPage = section(() => import("./phone/PhoneVerificationPage"), "PhoneVerificationPage");

/** Section keys of spec §2 (member shell), chosen from the path. */
export type SectionKey =
  | "dashboard"
  | "profile"
  | "profileSearch"
  | "favoriteList"
  | "footprints"
  | "blockedList"
  | "messages"
  | "unreadEmails"
  | "receivedEmails"
  | "sentEmails"
  | "messageBoardPosting"
  | "messageBoardSearch"
  | "inquiry"
  | "inquiryHistory"
  | "pointsUsage"
  | "pointPurchase"
  | "verification"
  | "phoneVerification";

export const SECTION_PATHS: Record<string, SectionKey> = {
  "": "dashboard",
  dashboard: "dashboard",
  "profile-settings": "profile",
  "profile-search": "profileSearch",
  "favorite-list": "favoriteList",
  footprints: "footprints",
  "blocked-list": "blockedList",
  messages: "messages",
  "unread-emails": "unreadEmails",
  "received-emails": "receivedEmails",
  "sent-emails": "sentEmails",
  "message-board-posting": "messageBoardPosting",
  "message-board-search": "messageBoardSearch",
  inquiry: "inquiry",
  "inquiry-history": "inquiryHistory",
  "points-usage": "pointsUsage",
  "point-purchase": "pointPurchase",
  verification: "verification",
  "phone-verification": "phoneVerification",
};

/**
 * The section a member path shows: its SECTION_PATHS entry, or, for /user/messages/:partnerId
 * (one conversation, decision 0030), the メッセージ section.
 */
export function sectionKeyOf(pathname: string): SectionKey | undefined {
  const path = pathname.replace(/^\/user\/?/, "").replace(/\/$/, "");
  return SECTION_PATHS[path] ?? (/^messages\/[^/]+$/.test(path) ? "messages" : undefined);
}

export interface MemberSection {
  path: string;
  /** The menu's name for it. */
  label: string;
  /** The page title's name (「受信メッセージ｜縁結び」) where the menu's is too short. */
  title?: string;
  component: ComponentType;
  /**
   * Drawn while the member's own data is still loading (it shows its heading at once and a loader
   * for the rest) instead of the shell's loader: the first page after login then paints its
   * heading with the header, without waiting for profile.me (Lighthouse's LCP, decision 0011).
   */
  drawsWhileLoading?: true;
}

/** Built sections. A section whose domain is not built yet has no entry and is not in the menu. */
export const MEMBER_SECTIONS: Partial<Record<SectionKey, MemberSection>> = {
  dashboard: { path: "dashboard", label: "ダッシュボード", component: Dashboard, drawsWhileLoading: true },
  profile: { path: "profile-settings", label: "プロフィール設定", component: ProfileSettings },
  profileSearch: { path: "profile-search", label: "プロフィール検索", component: ProfileSearch },
  favoriteList: { path: "favorite-list", label: "お気に入り一覧", component: FavoriteList },
  footprints: { path: "footprints", label: "足あと", component: Footprints },
  blockedList: { path: "blocked-list", label: "ブロックリスト", component: BlockedList },
  messages: { path: "messages", label: "メッセージ", component: Messages },
  unreadEmails: { path: "unread-emails", label: "未読", title: "未読メッセージ", component: UnreadEmails },
  receivedEmails: { path: "received-emails", label: "受信", title: "受信メッセージ", component: ReceivedEmails },
  sentEmails: { path: "sent-emails", label: "送信", title: "送信メッセージ", component: SentEmails },
  messageBoardPosting: { path: "message-board-posting", label: "掲示板投稿", component: MyPosts },
  messageBoardSearch: { path: "message-board-search", label: "掲示板検索", component: BoardSearch },
  inquiry: { path: "inquiry", label: "お問い合わせ", component: InquiryForm },
  inquiryHistory: { path: "inquiry-history", label: "お問い合わせ履歴", component: InquiryHistory },
  pointsUsage: { path: "points-usage", label: "ポイントの使い方", component: PointsUsage },
  pointPurchase: { path: "point-purchase", label: "ポイント購入", component: PointPurchase },
  verification: { path: "verification", label: "年齢確認", component: VerificationPage },
  phoneVerification: { path: "phone-verification", label: "電話番号認証", component: PhoneVerificationPage },
};

/**
 * Menu groups of spec §2 (足あと ours, in 検索). The spec's メール group is called メッセージ
 * (member-to-member mail, decision 0032); points usage and point purchase, routes only in the
 * spec, have a group of their own so nothing is reached only by typing its address.
 */
export const MENU_GROUPS: { label: string; keys: SectionKey[] }[] = [
  { label: "設定", keys: ["dashboard", "profile", "blockedList", "verification", "phoneVerification"] },
  { label: "検索", keys: ["profileSearch", "favoriteList", "footprints"] },
  { label: "メッセージ", keys: ["messages", "unreadEmails", "receivedEmails", "sentEmails"] },
  { label: "投稿", keys: ["messageBoardPosting", "messageBoardSearch", "inquiry", "inquiryHistory"] },
  { label: "ポイント", keys: ["pointPurchase", "pointsUsage"] },
];
