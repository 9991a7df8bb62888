import { Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { formatDate, formatPoints } from "../lib/format";
import { useCurrentUser } from "./useCurrentUser";

/** Dashboard (spec §2): name, points, registration date. */
export function Dashboard() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  const items = [
    { label: "お名前", value: user.name || "未設定" },
    { label: "所持ポイント", value: formatPoints(user.points) },
    { label: "登録日", value: formatDate(user.createdAt) },
  ];
  return (
    <Stack gap="md">
      <Title order={2}>ダッシュボード</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {items.map((item) => (
          <Card key={item.label} withBorder padding="md">
            <Text size="sm" c="dimmed">
              {item.label}
            </Text>
            <Text size="xl" fw={700}>
              {item.value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Group />
    </Stack>
  );
}
