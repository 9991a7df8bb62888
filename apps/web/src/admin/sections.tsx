import type { ComponentType } from "react";
import { AuditLog } from "./audit/AuditLog";
import { BoardManagement } from "./board/BoardManagement";
import { Dashboard } from "./dashboard/Dashboard";
import { InquiryList } from "./inquiries/InquiryList";
import { EmailManagement } from "./messages/EmailManagement";
import { InboxMessages, SentMessages } from "./messages/MessageBoxPage";
import { ModerationQueue } from "./moderation/ModerationQueue";
import { PaymentSettings } from "./payments/PaymentSettings";
import { PaymentTransactions } from "./payments/PaymentTransactions";
import { PurchaseBonuses } from "./payments/PurchaseBonuses";
import { UnusedBalanceReport } from "./payments/UnusedBalanceReport";
import { PointCosts } from "./point-costs/PointCosts";
import { AdminProfile } from "./profile/AdminProfile";
import { ProfileReviewQueue } from "./profile-review/ProfileReviewQueue";
import { AnnualIncomeManagement, OccupationManagement } from "./reference/ReferencePages";
import { ScreeningQueue } from "./screening/ScreeningQueue";
import { ScreeningRules } from "./screening/ScreeningRules";
import { UserManagement } from "./users/UserManagement";
import { VerificationQueue } from "./verification/VerificationQueue";

/**
 * The admin sections (spec §2 admin shell). A section appears in the menu only once its domain is
 * built; `inMenu: false` would keep a route out of the menu. The spec lists point costs, annual
 * income and occupations as routes only; they are in the menu so that no screen is reached only
 * by typing its address (decision 0032).
 */
export interface AdminSection {
  path: string;
  label: string;
  component: ComponentType;
  inMenu: boolean;
  group?: "messages";
  /** The work-waiting count shown beside the menu entry (adminDashboard.waiting, decision 0036). */
  waiting?: "verifications" | "inquiries" | "reports" | "payments" | "held" | "profileReviews";
}

export const ADMIN_SECTIONS: AdminSection[] = [
  { path: "dashboard", label: "ダッシュボード", component: Dashboard, inMenu: true },
  { path: "user-management", label: "ユーザー管理", component: UserManagement, inMenu: true },
  { path: "moderation", label: "通報の確認", component: ModerationQueue, inMenu: true, waiting: "reports" },
  { path: "screening", label: "投稿・メッセージ確認", component: ScreeningQueue, inMenu: true, waiting: "held" },
  { path: "screening-rules", label: "NGワード・検知ルール", component: ScreeningRules, inMenu: true },
  { path: "verification", label: "年齢確認", component: VerificationQueue, inMenu: true, waiting: "verifications" },
  {
    path: "profile-review",
    label: "プロフィール審査",
    component: ProfileReviewQueue,
    inMenu: true,
    waiting: "profileReviews",
  },
  { path: "inquiry-list", label: "お問い合わせ一覧", component: InquiryList, inMenu: true, waiting: "inquiries" },
  { path: "sent-messages", label: "送信済みメッセージ", component: SentMessages, inMenu: true, group: "messages" },
  { path: "inbox-messages", label: "受信メッセージ", component: InboxMessages, inMenu: true, group: "messages" },
  { path: "email-management", label: "メール管理", component: EmailManagement, inMenu: true, group: "messages" },
  { path: "board-posts", label: "掲示板管理", component: BoardManagement, inMenu: true },
  {
    path: "payment-transactions",
    label: "決済取引",
    component: PaymentTransactions,
    inMenu: true,
    waiting: "payments",
  },
  { path: "payment-settings", label: "決済設定", component: PaymentSettings, inMenu: true },
  { path: "purchase-bonuses", label: "購入ボーナス", component: PurchaseBonuses, inMenu: true },
  { path: "unused-balance", label: "未使用残高報告", component: UnusedBalanceReport, inMenu: true },
  { path: "point-costs", label: "ポイント設定", component: PointCosts, inMenu: true },
  { path: "annual-income", label: "年収管理", component: AnnualIncomeManagement, inMenu: true },
  { path: "occupation-management", label: "職業管理", component: OccupationManagement, inMenu: true },
  { path: "audit-log", label: "監査ログ", component: AuditLog, inMenu: true },
  { path: "profile-settings", label: "管理者プロフィール", component: AdminProfile, inMenu: true },
];

/**
 * The default section: /admin and unknown admin paths show the operator's dashboard (decision 0036;
 * the spec's user management stays at /admin/user-management and in the menu).
 */
export const DEFAULT_ADMIN_PATH = "dashboard";
