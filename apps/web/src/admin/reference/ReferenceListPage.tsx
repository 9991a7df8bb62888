import { Alert, Button, Code, Group, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { useBanner } from "../../lib/useBanner";

export interface ReferenceItem {
  id: string;
  label: string;
}

/** The list's texts from the catalogue (spec §5, §8). */
export interface ReferenceMessages {
  empty: string;
  added: string;
  deleted: string;
  addFailed: string;
  deleteFailed: string;
}

/**
 * One reference list (spec §2 admin screen 10): an add form (Enter submits; empty gives the
 * list's message), the registered count, the list with IDs and delete with confirmation, and
 * banners that vanish after 3 s.
 */
export function ReferenceListPage({
  title,
  itemName,
  inputLabel,
  placeholder,
  messages,
  items,
  loadError,
  onAdd,
  onDelete,
}: {
  title: string;
  /** 職業 / 年収範囲: the column heading and the confirmation. */
  itemName: string;
  inputLabel: string;
  placeholder: string;
  messages: ReferenceMessages;
  items: ReferenceItem[] | undefined;
  loadError: string | null;
  onAdd(label: string): Promise<void>;
  onDelete(id: string): Promise<void>;
}) {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [banner, showBanner] = useBanner();

  const failure = (error: unknown, fallback: string) =>
    showBanner({ kind: "error", text: error instanceof Error && error.message ? error.message : fallback });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const label = value.trim();
    if (!label) return showBanner({ kind: "error", text: messages.empty });
    setBusy(true);
    try {
      await onAdd(label);
      setValue("");
      showBanner({ kind: "success", text: messages.added });
    } catch (error) {
      failure(error, messages.addFailed);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (item: ReferenceItem) => {
    const ok = await confirmAction({ title: `${itemName}の削除`, message: `「${item.label}」を削除しますか？` });
    if (!ok) return;
    try {
      await onDelete(item.id);
      showBanner({ kind: "success", text: messages.deleted });
    } catch (error) {
      failure(error, messages.deleteFailed);
    }
  };

  return (
    <Stack gap="md" maw={760}>
      <Title order={2}>{title}</Title>
      <Paper withBorder p="sm" component="form" onSubmit={add}>
        <Group align="flex-end" gap="xs">
          <TextInput
            label={inputLabel}
            placeholder={placeholder}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={busy}>
            追加
          </Button>
        </Group>
      </Paper>
      {banner && (
        <Alert color={banner.kind === "success" ? "green" : "red"} role="status">
          {banner.text}
        </Alert>
      )}
      {loadError && <Alert color="red">{loadError}</Alert>}
      <Text size="sm" c="dimmed" data-testid="reference-count">
        登録件数: {items ? `${items.length}件` : "—"}
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table striped aria-label={`${itemName}一覧`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>ID</Table.Th>
              <Table.Th>{itemName}</Table.Th>
              <Table.Th w={90}>操作</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items?.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Code fz="xs">{item.id}</Code>
                </Table.Td>
                <Table.Td>{item.label}</Table.Td>
                <Table.Td>
                  <Button size="compact-xs" color="red" variant="light" onClick={() => void remove(item)}>
                    削除
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
