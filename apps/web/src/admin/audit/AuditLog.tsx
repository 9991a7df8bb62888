import { AUDIT_PAGE_SIZE_DEFAULT, auditListInput, MSG } from "@enmusubi/shared";
import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { RouterInputs, RouterOutputs } from "../../lib/api-types";
import { countLabel } from "../../lib/count-label";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../../lib/dates";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import { type FieldErrors, validate } from "../../lib/forms";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { describeAction, describeDetails } from "./describe";

type Entry = RouterOutputs["adminAudit"]["list"]["entries"][number];
type Filters = Pick<RouterInputs["adminAudit"]["list"] & object, "adminUserID" | "action" | "dateFrom" | "dateTo">;

const EMPTY = { adminUserID: "", action: "", dateFrom: "", dateTo: "" };

/**
 * 監査ログ: what administrators did (who, what, target, before → after, when), newest first,
 * filtered and paged on the server. Read-only: the log cannot be changed from anywhere.
 */
export function AuditLog() {
  const trpc = useTRPC();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.adminAudit.list.queryOptions({ ...filters, page, limit: AUDIT_PAGE_SIZE_DEFAULT }),
    placeholderData: keepPreviousData,
  });
  const actions = useQuery(trpc.adminAudit.actions.queryOptions());

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next: Filters = Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== ""));
    const checked = validate(auditListInput, next);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setFilters(next);
    setPage(1);
  };
  const clear = () => {
    setForm(EMPTY);
    setErrors({});
    setFilters({});
    setPage(1);
  };
  const field = (key: keyof typeof EMPTY) => ({
    value: form[key],
    onChange: (e: { currentTarget: { value: string } }) => {
      // Read now: the event's target is gone by the time a state updater runs.
      const value = e.currentTarget.value;
      setForm((f) => ({ ...f, [key]: value }));
    },
    error: errors[key],
  });
  const data = list.data;
  const filtered = Object.keys(filters).length > 0;

  return (
    <Stack gap="md">
      <Title order={2}>監査ログ</Title>
      <form onSubmit={apply} aria-label="監査ログの絞り込み">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput label="管理者ID" placeholder="例: admin" w={180} {...field("adminUserID")} />
          <Select
            label="操作"
            placeholder="すべて"
            w={240}
            clearable
            searchable
            data={(actions.data ?? []).map((a) => ({ value: a, label: `${describeAction(a)}（${a}）` }))}
            value={form.action || null}
            onChange={(v) => setForm((f) => ({ ...f, action: v ?? "" }))}
            nothingFoundMessage="該当する操作はありません"
            error={errors.action ?? (actions.isError ? "操作一覧の取得に失敗しました" : undefined)}
          />
          {/* Japanese dates whatever the browser's language; the value stays YYYY-MM-DD (Japan's days). */}
          <DateInput
            label="開始日"
            w={200}
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            placeholder="例: 2026年11月1日"
            value={form.dateFrom || null}
            onChange={(v) => setForm((f) => ({ ...f, dateFrom: v ?? "" }))}
            clearable
            error={errors.dateFrom}
          />
          <DateInput
            label="終了日"
            w={200}
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            placeholder="例: 2026年11月30日"
            value={form.dateTo || null}
            onChange={(v) => setForm((f) => ({ ...f, dateTo: v ?? "" }))}
            clearable
            error={errors.dateTo}
          />
          <Button type="submit">検索</Button>
          <Button variant="default" onClick={clear} disabled={!filtered && form === EMPTY}>
            クリア
          </Button>
        </Group>
      </form>
      {data && (
        <Text size="sm" data-testid="audit-total">
          {countLabel(data.pagination.total, data.pagination.totalCapped)}
        </Text>
      )}
      <ListStates
        isLoading={list.isLoading}
        isError={list.isError}
        errorText={MSG.auditFetchFailed}
        onRetry={() => void list.refetch()}
        isEmpty={(data?.entries.length ?? 0) === 0}
        emptyText={filtered ? "条件に一致する記録はありません" : "監査ログはまだありません"}
      >
        <Table.ScrollContainer minWidth={760}>
          <Table striped withTableBorder aria-label="監査ログ" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">日時</Table.Th>
                <Table.Th scope="col">管理者</Table.Th>
                <Table.Th scope="col">操作</Table.Th>
                <Table.Th scope="col">対象</Table.Th>
                <Table.Th scope="col">変更内容</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ListStates>
      {data && (
        <PagePagination
          value={page}
          onChange={setPage}
          total={data.pagination.totalPages}
          names="ページ目"
          centered={false}
        />
      )}
    </Stack>
  );
}

function AuditRow({ entry }: { entry: Entry }) {
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(entry.createdAt)}</Table.Td>
      <Table.Td>
        <Text size="sm">{displayName(entry.admin)}</Text>
        <Text size="xs" c="dimmed">
          {entry.admin.userID}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{describeAction(entry.action)}</Text>
        <Text size="xs" c="dimmed">
          {entry.action}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{entry.targetType}</Text>
        {entry.targetId && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {entry.targetId}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {describeDetails(entry.details).map((line) => (
            <Text key={line} size="xs" style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>
              {line}
            </Text>
          ))}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
