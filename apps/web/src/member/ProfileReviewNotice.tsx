import { MSG } from "@enmusubi/shared";
import { Alert, Badge, Stack } from "@mantine/core";
import type { CurrentUser } from "./useCurrentUser";

type State = CurrentUser["review"]["photo"];

const KIND = { photo: "プロフィール写真", introduction: "自己紹介" } as const;

function line(kind: keyof typeof KIND, state: State, withApproved: boolean) {
  if (!state) return null;
  if (state.status === "pending") {
    return {
      color: "yellow",
      text: kind === "photo" ? MSG.profilePhotoPendingNotice : MSG.profileIntroductionPendingNotice,
    };
  }
  if (state.status === "rejected") {
    const note = state.note ? `（${state.note}）` : "";
    return { color: "red", text: `${KIND[kind]}：${MSG.profileReviewRejectedPrefix}${state.reasonLabel}${note}` };
  }
  if (!withApproved) return null;
  return {
    color: "green",
    text: kind === "photo" ? MSG.profilePhotoApprovedNotice : MSG.profileIntroductionApprovedNotice,
  };
}

/**
 * What the profile review says of the member's own photo and 自己紹介 (decision 0044): a change
 * waiting (other members see the previous one), the last rejection with its reason until the
 * member changes it again, and (on the dashboard) a recent approval.
 */
export function ProfileReviewNotice({ user, withApproved = false }: { user: CurrentUser; withApproved?: boolean }) {
  const lines = [
    line("photo", user.review.photo, withApproved),
    line("introduction", user.review.introduction, withApproved),
  ].filter((l) => l !== null);
  if (lines.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="profile-review-notice">
      {lines.map((l) => (
        <Alert key={l.text} color={l.color} p="xs" variant="light">
          {l.text}
        </Alert>
      ))}
    </Stack>
  );
}

/** 「審査中」 beside what waits for the review (the photo, the 自己紹介 field). */
export function PendingBadge({ state }: { state: State }) {
  if (state?.status !== "pending") return null;
  return (
    <Badge color="yellow" variant="light" data-testid="review-pending">
      {MSG.profileReviewPending}
    </Badge>
  );
}
