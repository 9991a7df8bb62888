import { Badge } from "@mantine/core";
import type { PublicProfile } from "./types";

/**
 * 年齢確認済み: the member's age verification is approved, so they can read and answer messages
 * (a message to anyone else is refused before any charge; decision 0025). Nothing for the others:
 * their status (pending, rejected) is not shown.
 */
export function VerifiedBadge({ profile }: { profile: Pick<PublicProfile, "verified"> }) {
  if (!profile.verified) return null;
  return (
    <Badge size="xs" color="teal" variant="light" style={{ flexShrink: 0 }} data-testid="verified-badge">
      年齢確認済み
    </Badge>
  );
}
