import { Card, Select, SimpleGrid } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import {
  METHOD_LABELS,
  type PaymentMethodKey,
  STATUS_LABELS,
  type TransactionStatus,
} from "../../features/payments/StatusBadge";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../../lib/dates";

export interface Filters {
  status: TransactionStatus | null;
  method: PaymentMethodKey | null;
  startDate: string | null;
  endDate: string | null;
}

const STATUS_OPTIONS = (Object.keys(STATUS_LABELS) as TransactionStatus[]).map((value) => ({
  value,
  label: STATUS_LABELS[value],
}));
const METHOD_OPTIONS = (Object.keys(METHOD_LABELS) as PaymentMethodKey[]).map((value) => ({
  value,
  label: METHOD_LABELS[value],
}));

/** 絞り込み: status, method, start and end date (typed or picked); each change starts again at page 1. */
export function TransactionFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange<K extends keyof Filters>(key: K, value: Filters[K]): void;
}) {
  return (
    <Card withBorder padding="sm">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} role="group" aria-label="絞り込み">
        <Select
          label="ステータス"
          placeholder="すべて"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => onChange("status", v as TransactionStatus | null)}
          clearable
        />
        <Select
          label="支払方法"
          placeholder="すべて"
          data={METHOD_OPTIONS}
          value={filters.method}
          onChange={(v) => onChange("method", v as PaymentMethodKey | null)}
          clearable
        />
        <DateInput
          label="開始日"
          placeholder="例: 2026年11月1日"
          valueFormat={JAPANESE_DATE_FORMAT}
          dateParser={parseTypedDate}
          value={filters.startDate}
          onChange={(v) => onChange("startDate", v)}
          clearable
        />
        <DateInput
          label="終了日"
          placeholder="例: 2026年11月30日"
          valueFormat={JAPANESE_DATE_FORMAT}
          dateParser={parseTypedDate}
          value={filters.endDate}
          onChange={(v) => onChange("endDate", v)}
          minDate={filters.startDate ?? undefined}
          clearable
        />
      </SimpleGrid>
    </Card>
  );
}
