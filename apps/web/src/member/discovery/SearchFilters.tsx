import { MEMBER_SEARCH_ORDERS, type MemberSearchOrder, PREFECTURES } from "@enmusubi/shared";
import { Checkbox, Group, NumberInput, Select, SimpleGrid, Stack, Switch, TextInput } from "@mantine/core";

const PAGE_SIZE = 20;

type Prefecture = (typeof PREFECTURES)[number];

/** What the member asked for: the draft being edited and the search applied. */
export interface Filters {
  occupationId: string | null;
  annualIncomeId: string | null;
  excludeSameSex: boolean;
  ageMin: number | "";
  ageMax: number | "";
  prefecture: Prefecture | null;
  hasPhoto: boolean;
  keyword: string;
  /** Most recently active first (the default) or newest registrations first. */
  order: MemberSearchOrder;
}

const ORDER_LABELS: Record<MemberSearchOrder, string> = {
  active: "最近ログインした順",
  newest: "新しく登録した順",
};

export const EMPTY: Filters = {
  occupationId: null,
  annualIncomeId: null,
  excludeSameSex: true,
  ageMin: "",
  ageMax: "",
  prefecture: null,
  hasPhoto: false,
  keyword: "",
  order: "active",
};

/** The filters as the search procedure takes them (blanks left out), 20 a page. */
export function toInput(filters: Filters, page: number) {
  return {
    occupationId: filters.occupationId ?? undefined,
    annualIncomeId: filters.annualIncomeId ?? undefined,
    excludeSameSex: filters.excludeSameSex,
    ageMin: filters.ageMin === "" ? undefined : filters.ageMin,
    ageMax: filters.ageMax === "" ? undefined : filters.ageMax,
    prefecture: filters.prefecture ?? undefined,
    hasPhoto: filters.hasPhoto || undefined,
    keyword: filters.keyword.trim() || undefined,
    order: filters.order,
    page,
    limit: PAGE_SIZE,
  };
}

/** The search fields: keyword, order, occupation, income, prefecture, age range, same sex, photo only. */
export function SearchFilterFields({
  draft,
  onChange,
  ageError,
  occupations,
  annualIncomes,
}: {
  draft: Filters;
  onChange<K extends keyof Filters>(key: K, value: Filters[K]): void;
  ageError: string | undefined;
  occupations: readonly { id: string; name: string }[];
  annualIncomes: readonly { id: string; label: string }[];
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
      <TextInput
        label="キーワード（ニックネーム・自己紹介）"
        description="スペースで区切ると、すべてを含む方を探します"
        value={draft.keyword}
        onChange={(e) => onChange("keyword", e.currentTarget.value)}
        maxLength={50}
      />
      <Select
        label="並び順"
        data={MEMBER_SEARCH_ORDERS.map((value) => ({ value, label: ORDER_LABELS[value] }))}
        value={draft.order}
        onChange={(v) => onChange("order", (v as MemberSearchOrder | null) ?? "active")}
        allowDeselect={false}
      />
      <Select
        label="職業"
        placeholder="指定なし"
        data={occupations.map((o) => ({ value: o.id, label: o.name }))}
        value={draft.occupationId}
        onChange={(v) => onChange("occupationId", v)}
        clearable
      />
      <Select
        label="年収"
        placeholder="指定なし"
        data={annualIncomes.map((a) => ({ value: a.id, label: a.label }))}
        value={draft.annualIncomeId}
        onChange={(v) => onChange("annualIncomeId", v)}
        clearable
      />
      <Select
        label="都道府県"
        placeholder="指定なし"
        data={[...PREFECTURES]}
        value={draft.prefecture}
        onChange={(v) => onChange("prefecture", (v as Prefecture | null) ?? null)}
        clearable
        searchable
        nothingFoundMessage="該当なし"
      />
      <Group gap="xs" grow align="flex-start">
        <NumberInput
          label="年齢（下限）"
          min={18}
          max={120}
          allowDecimal={false}
          allowNegative={false}
          value={draft.ageMin}
          onChange={(v) => onChange("ageMin", typeof v === "number" ? v : "")}
          error={ageError}
        />
        <NumberInput
          label="年齢（上限）"
          min={18}
          max={120}
          allowDecimal={false}
          allowNegative={false}
          value={draft.ageMax}
          onChange={(v) => onChange("ageMax", typeof v === "number" ? v : "")}
        />
      </Group>
      <Stack gap="xs" justify="flex-end" pb={4}>
        <Switch
          label="同性を除外する"
          checked={draft.excludeSameSex}
          onChange={(e) => onChange("excludeSameSex", e.currentTarget.checked)}
        />
        <Checkbox
          label="写真ありのみ"
          checked={draft.hasPhoto}
          onChange={(e) => onChange("hasPhoto", e.currentTarget.checked)}
        />
      </Stack>
    </SimpleGrid>
  );
}
