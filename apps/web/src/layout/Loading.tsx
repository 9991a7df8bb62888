import { Center, Loader, Stack, Text } from "@mantine/core";

export function Loading({ label = "読み込み中..." }: { label?: string }) {
  return (
    <Center mih="40vh" p="xl">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
