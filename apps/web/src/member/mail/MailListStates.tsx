import { Alert, Button, Card, Group, Loader, Select, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { type PartyLike, partyName } from "../../features/messages";

/** Loading, error (with retry) and empty states every mail list has; the items otherwise. */
export function MailListStates({
  isLoading,
  isError,
  errorText,
  onRetry,
  isEmpty,
  emptyText,
  children,
}: {
  isLoading: boolean;
  isError: boolean;
  errorText: string;
  onRetry: () => void;
  isEmpty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  if (isLoading)
    return (
      <Group gap="sm" role="status" py="md">
        <Loader size="sm" aria-hidden />
        <Text>読み込み中...</Text>
      </Group>
    );
  if (isError)
    return (
      <Alert color="red" title={errorText} role="alert">
        <Button size="xs" variant="white" color="red" mt="xs" onClick={onRetry}>
          再試行
        </Button>
      </Alert>
    );
  if (isEmpty)
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed" ta="center">
          {emptyText}
        </Text>
      </Card>
    );
  return <Stack gap="sm">{children}</Stack>;
}

/** The sender / recipient filter and the count of what it shows. */
export function PartyFilter({
  label,
  parties,
  value,
  onChange,
  count,
}: {
  label: string;
  parties: PartyLike[];
  value: string | null;
  onChange: (id: string | null) => void;
  count: number;
}) {
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label={label}
        placeholder="すべて"
        data={parties.map((p) => ({ value: p.id, label: partyName(p) }))}
        value={value}
        onChange={onChange}
        clearable
        searchable
        nothingFoundMessage="該当なし"
        w={{ base: "100%", xs: 260 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="mail-count" pb={8}>
        {count}件
      </Text>
    </Group>
  );
}
