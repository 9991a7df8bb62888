import { Group, Select, Stack, Text } from "@mantine/core";
import type { ComponentProps } from "react";
import { type PartyLike, partyName } from "../../features/messages";
import { ListStates } from "../../ui/ListStates";

/** The shared list states, with the mail items stacked. */
export function MailListStates({
  children,
  ...states
}: Omit<ComponentProps<typeof ListStates>, "emptyText"> & { emptyText: string }) {
  return (
    <ListStates {...states}>
      <Stack gap="sm">{children}</Stack>
    </ListStates>
  );
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
