import { Avatar, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { Suspense, useDeferredValue, useState } from "react";
import { Link } from "react-router-dom";
import { displayName, UNSET } from "../lib/display-name";
import { formatDate, formatPoints } from "../lib/format";
import { TextPlaceholder } from "../ui/TextPlaceholder";
import { lazyScreen } from "./lazy-screen";
import { PointExpiry } from "./PointExpiry";
import { PendingBadge, ProfileReviewNotice } from "./ProfileReviewNotice";
import { PhoneNotice } from "./phone/PhoneNotice";
import { useCurrentUser } from "./useCurrentUser";

/**
 * The edit modal (its form, date picker, photo picker, schemas and the styles they need) loads
 * when first opened, not with the dashboard; it then stays mounted so it closes with its transition.
 */
const ProfileEditModal = lazyScreen(() => import("./ProfileEditModal"), "ProfileEditModal");

/**
 * Dashboard (spec §2): name, points, registration date, the profile and its edit modal. Drawn by
 * the shell before the member's data arrives (sections.tsx `drawsWhileLoading`), and drawn whole:
 * the labels, the points-expiry card (its query goes out with profile.me) and, until profile.me
 * answers, skeletons the size of the values. The page then keeps its height when the data comes
 * (Lighthouse's CLS: the footer and the cards below moved) and its largest text paints with the
 * header (its LCP waited for two round trips).
 */
export function Dashboard() {
  const { data } = useCurrentUser();
  // Drawn as a deferred (interruptible) render when the data arrives, not in one block with the
  // shell, so the first page after login has no long task the phone cannot answer input during.
  const user = useDeferredValue(data);
  const [editing, setEditing] = useState(false);
  const [editorLoaded, setEditorLoaded] = useState(false);
  const title = <Title order={2}>ダッシュボード</Title>;
  const items = [
    { label: "ニックネーム", value: user && displayName(user), testId: "dashboard-name" },
    { label: "所持ポイント", value: user && formatPoints(user.points), testId: "dashboard-points" },
    { label: "登録日", value: user && formatDate(user.createdAt), testId: "dashboard-created" },
  ];
  const profile = [
    { label: "生年月日", value: user && (user.birthday ? formatDate(user.birthday) : UNSET) },
    { label: "住所", value: user && (user.address ?? UNSET) },
    { label: "職業", value: user && (user.occupation?.name ?? UNSET) },
    { label: "年収", value: user && (user.annualIncome?.label ?? UNSET) },
  ];
  return (
    <Stack gap="md">
      {title}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {items.map((item) => (
          <Card key={item.label} withBorder padding="md">
            <Text size="sm" c="dimmed">
              {item.label}
            </Text>
            {item.value === undefined ? (
              <TextPlaceholder size="xl" />
            ) : (
              <Text size="xl" fw={700} data-testid={item.testId}>
                {item.value}
              </Text>
            )}
          </Card>
        ))}
      </SimpleGrid>
      <PhoneNotice />
      <PointExpiry />
      <Group justify="flex-end">
        <Button component={Link} to="/user/point-purchase" variant="light">
          ポイントを購入する
        </Button>
      </Group>
      <Card withBorder padding="md">
        <Group justify="space-between" mb="sm" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Avatar
              src={user?.photoUrl}
              size={64}
              radius="md"
              color="pink"
              alt={user ? user.name || user.userID : ""}
              data-testid="dashboard-avatar"
            >
              {user && (user.name ?? "?").slice(0, 1)}
            </Avatar>
            <Title order={3} size="h4">
              プロフィール
            </Title>
            {user && <PendingBadge state={user.review.photo} />}
          </Group>
          <Button
            disabled={!user}
            // Fetched as the pointer or focus reaches the button, so the click rarely waits.
            onPointerEnter={ProfileEditModal.preload}
            onFocus={ProfileEditModal.preload}
            onClick={() => {
              setEditorLoaded(true);
              setEditing(true);
            }}
          >
            プロフィールを編集
          </Button>
        </Group>
        {user && <ProfileReviewNotice user={user} withApproved />}
        <Table variant="vertical" layout="fixed" withTableBorder={false}>
          <Table.Tbody>
            {profile.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Th w={110}>{row.label}</Table.Th>
                <Table.Td>{row.value ?? <TextPlaceholder />}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      {user === undefined && <VisuallyHidden role="status">読み込み中...</VisuallyHidden>}
      {user && editorLoaded && (
        <Suspense fallback={null}>
          <ProfileEditModal user={user} opened={editing} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
