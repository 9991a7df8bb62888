import { Stack, Text, Title } from "@mantine/core";
import type { ProfileDetail, PublicProfile } from "./types";

const hasDetail = (profile: PublicProfile | ProfileDetail): profile is ProfileDetail =>
  "selfIntroduction" in profile && "lastActive" in profile;

/**
 * What only the paid detail shows (decision 0029): the member's 自己紹介, line breaks kept, and when
 * they were last active, as the server's bucket (「24時間以内」…「1ヶ月以上」; never a time).
 * Nothing for a profile without them (a public profile from a list).
 */
export function ProfileAbout({ profile }: { profile: PublicProfile | ProfileDetail }) {
  if (!hasDetail(profile)) return null;
  const intro = profile.selfIntroduction.trim();
  return (
    <Stack gap={4} component="section" aria-labelledby={`about-${profile.id}`}>
      <Title order={3} size="h6" id={`about-${profile.id}`}>
        自己紹介
      </Title>
      <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} c={intro ? undefined : "dimmed"}>
        {intro || "まだ自己紹介はありません。"}
      </Text>
      <Text size="sm" c="dimmed" data-testid="last-active">
        最終ログイン: {profile.lastActive}
      </Text>
    </Stack>
  );
}
