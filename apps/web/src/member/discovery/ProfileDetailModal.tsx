import { Button, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { BlockButton, ReportButton } from "../../features/safety";
import { formatDate } from "../../lib/format";
import { ProfileAbout } from "./ProfileAbout";
import { ProfilePhoto } from "./ProfilePhoto";
import { displayName, genderLabel, type PublicProfile, UNSET } from "./types";
import { VerifiedBadge } from "./VerifiedBadge";

/** The detail popup a paid view opens (spec §2 profile search): photo, public fields, actions. */
export function ProfileDetailModal({
  profile,
  onClose,
  onMessage,
  onEnlarge,
}: {
  profile: PublicProfile | null;
  onClose: () => void;
  onMessage: (profile: PublicProfile) => void;
  onEnlarge: (profile: PublicProfile) => void;
}) {
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
          <Group justify="center">
            {profile.photoLink ? (
              <button
                type="button"
                onClick={() => onEnlarge(profile)}
                aria-label={`${displayName(profile)}さんの写真を拡大`}
                style={{ padding: 0, border: 0, background: "none", cursor: "zoom-in" }}
              >
                <ProfilePhoto profile={profile} size={160} />
              </button>
            ) : (
              <ProfilePhoto profile={profile} size={160} />
            )}
          </Group>
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
            <Button onClick={() => onMessage(profile)}>メッセージを送る</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The enlarged photo (spec §2 avatar enlarge and download). */
export function PhotoModal({ profile, onClose }: { profile: PublicProfile | null; onClose: () => void }) {
  return (
    <Modal
      opened={profile !== null}
      onClose={onClose}
      title={profile ? `${displayName(profile)}さんの写真` : "写真"}
      centered
      size="lg"
    >
      {profile?.photoLink && (
        <Stack gap="sm">
          <img
            src={profile.photoLink}
            alt={displayName(profile)}
            style={{ width: "100%", maxHeight: "70vh", objectFit: "contain", display: "block" }}
          />
          <Group justify="flex-end">
            <Button component="a" href={profile.photoLink} download variant="default">
              写真を保存
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
