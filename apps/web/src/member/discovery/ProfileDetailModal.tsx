import { Button, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { BlockButton, ReportButton } from "../../features/safety";
import { formatDate } from "../../lib/format";
import { PhotoEnlarge } from "./PhotoEnlarge";
import { ProfileAbout } from "./ProfileAbout";
import { displayName, genderLabel, type PublicProfile, UNSET } from "./types";
import { VerifiedBadge } from "./VerifiedBadge";

/**
 * The detail popup a paid view opens (spec §2 profile search, the board's posters): photo, public
 * fields, actions. 「メッセージを送る」 opens the conversation with them (decision 0030).
 */
export function ProfileDetailModal({ profile, onClose }: { profile: PublicProfile | null; onClose: () => void }) {
  const rows: [string, string][] = profile
    ? [
        ["性別", genderLabel(profile.gender)],
        ["年齢", profile.age !== null ? `${profile.age}歳` : UNSET],
        ["都道府県", profile.prefecture ?? UNSET],
        ["職業", profile.occupation?.name ?? UNSET],
        ["年収", profile.annualIncome?.label ?? UNSET],
        ["登録日", formatDate(profile.createdAt)],
      ]
    : [];
  return (
    <Modal
      opened={profile !== null}
      onClose={onClose}
      title={profile ? `${displayName(profile)}さんのプロフィール` : "プロフィール"}
      centered
    >
      {profile && (
        <Stack gap="md">
          <PhotoEnlarge profile={profile} />
          {profile.verified && (
            <Group justify="center">
              <VerifiedBadge profile={profile} />
            </Group>
          )}
          <Table withRowBorders={false} verticalSpacing={4} data-testid="profile-detail">
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={96} scope="row">
                    <Text size="sm" c="dimmed">
                      {label}
                    </Text>
                  </Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ProfileAbout profile={profile} />
          <Group justify="flex-end" gap="sm">
            <ReportButton target={{ type: "member", id: profile.id, label: `${displayName(profile)}さん` }} />
            <BlockButton userId={profile.id} name={displayName(profile)} onBlocked={onClose} />
            <Button variant="default" onClick={onClose}>
              閉じる
            </Button>
            <Button component={Link} to={`/user/messages/${profile.id}`} onClick={onClose}>
              メッセージを送る
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
