import type { AppRouter } from "@enmusubi/api";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;

/** A message as the member mailbox answers it. */
export type MemberMessage = Outputs["messages"]["list"]["messages"][number];

/** The least a card needs: both shells' messages have it. */
export interface MessageLike {
  id: string;
  body: string;
  createdAt: Date;
  isRead: boolean;
  hasReply: boolean;
}

/** Someone on a message: sender or recipient. */
export interface PartyLike {
  id: string;
  name: string | null;
  photoLink: string | null;
  role?: string;
}

/** A party's name as shown (spec §2 member card: 'not set' placeholder). */
export function partyName(party: { name: string | null } | null | undefined): string {
  return party?.name?.trim() || "未設定";
}
