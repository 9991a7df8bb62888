import type { ComponentType } from "react";
import { BoardSearch } from "./board/BoardSearch";
import { MyPosts } from "./board/MyPosts";
import { Dashboard } from "./Dashboard";
import { FavoriteList } from "./discovery/FavoriteList";
import { Footprints } from "./discovery/Footprints";
import { ProfileSearch } from "./discovery/ProfileSearch";
import { InquiryForm } from "./inquiry/InquiryForm";
import { InquiryHistory } from "./inquiry/InquiryHistory";
import { ReceivedEmails } from "./mail/ReceivedEmails";
import { SentEmails } from "./mail/SentEmails";
import { UnreadEmails } from "./mail/UnreadEmails";
import { PointsUsage } from "./PointsUsage";
import { ProfileSettingsStub } from "./ProfileSettingsStub";
import { PointPurchase } from "./purchase/PointPurchase";
import { BlockedList } from "./safety/BlockedList";
import { VerificationPage } from "./verification/VerificationPage";

/** Section keys of spec §2 (member shell), chosen from the path. */
export type SectionKey =
  | "dashboard"
  | "profile"
  | "profileSearch"
  | "favoriteList"
  | "footprints"
  | "blockedList"
  | "unreadEmails"
  | "receivedEmails"
  | "sentEmails"
  | "messageBoardPosting"
  | "messageBoardSearch"
  | "inquiry"
  | "inquiryHistory"
  | "pointsUsage"
  | "pointPurchase"
  | "verification";

export const SECTION_PATHS: Record<string, SectionKey> = {
  "": "dashboard",
  dashboard: "dashboard",
  "profile-settings": "profile",
  "profile-search": "profileSearch",
  "favorite-list": "favoriteList",
  footprints: "footprints",
  "blocked-list": "blockedList",
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
};

export interface MemberSection {
  path: string;
  label: string;
  component: ComponentType;
}

/** Built sections. A section whose domain is not built yet has no entry and is not in the menu. */
export const MEMBER_SECTIONS: Partial<Record<SectionKey, MemberSection>> = {
  dashboard: { path: "dashboard", label: "ダッシュボード", component: Dashboard },
  profile: { path: "profile-settings", label: "プロフィール設定", component: ProfileSettingsStub },
  profileSearch: { path: "profile-search", label: "プロフィール検索", component: ProfileSearch },
  favoriteList: { path: "favorite-list", label: "お気に入り一覧", component: FavoriteList },
  footprints: { path: "footprints", label: "足あと", component: Footprints },
  blockedList: { path: "blocked-list", label: "ブロックリスト", component: BlockedList },
  unreadEmails: { path: "unread-emails", label: "未読", component: UnreadEmails },
  receivedEmails: { path: "received-emails", label: "受信", component: ReceivedEmails },
  sentEmails: { path: "sent-emails", label: "送信", component: SentEmails },
  messageBoardPosting: { path: "message-board-posting", label: "掲示板投稿", component: MyPosts },
  messageBoardSearch: { path: "message-board-search", label: "掲示板検索", component: BoardSearch },
  inquiry: { path: "inquiry", label: "お問い合わせ", component: InquiryForm },
  inquiryHistory: { path: "inquiry-history", label: "お問い合わせ履歴", component: InquiryHistory },
  pointsUsage: { path: "points-usage", label: "ポイントの使い方", component: PointsUsage },
  pointPurchase: { path: "point-purchase", label: "ポイント購入", component: PointPurchase },
  verification: { path: "verification", label: "年齢確認", component: VerificationPage },
};

/** Menu groups of spec §2 (足あと ours, in 検索); points usage and point purchase are routes only. */
export const MENU_GROUPS: { label: string; keys: SectionKey[] }[] = [
  { label: "設定", keys: ["dashboard", "profile", "blockedList", "verification"] },
  { label: "検索", keys: ["profileSearch", "favoriteList", "footprints"] },
  { label: "メール", keys: ["unreadEmails", "receivedEmails", "sentEmails"] },
  { label: "投稿", keys: ["messageBoardPosting", "messageBoardSearch", "inquiry", "inquiryHistory"] },
];
