import type { RouterOutputs } from "../../lib/api-types";

/** A message as the member mailbox answers it. */
export type MemberMessage = RouterOutputs["messages"]["list"]["messages"][number];
type AdminMessage = RouterOutputs["adminMessages"]["list"]["messages"][number];

/** The least a card needs: the part both shells' messages share. */
export type MessageLike = Pick<MemberMessage & AdminMessage, "id" | "body" | "createdAt" | "isRead" | "hasReply">;

/** Someone on a message, sender or recipient: the part both shells' parties share. */
export type PartyLike = Pick<MemberMessage["from"] & AdminMessage["from"], "id" | "name" | "photoLink" | "role">;

/** A party's name as shown (spec §2 member card: 'not set' placeholder). */
export { displayName as partyName } from "../../lib/display-name";
