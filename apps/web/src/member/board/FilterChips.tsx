import { Badge, CloseButton, Group, Text } from "@mantine/core";
import dayjs from "dayjs";
import { JAPANESE_DATE_FORMAT } from "../../lib/dates";

/** The board search's conditions; dates as YYYY-MM-DD, "" when not set. */
export interface BoardFilterValues {
  keyword: string;
  poster: string;
  startDate: string;
  endDate: string;
  excludeSameSex: boolean;
}

export const NO_FILTERS: BoardFilterValues = {
  keyword: "",
  poster: "",
  startDate: "",
  endDate: "",
  // The other gender's posts by default, as the profile search (decision 0040).
  excludeSameSex: true,
};

/** The filters as typed, trimmed; a condition left blank is no condition. */
export function cleanFilters(values: BoardFilterValues): BoardFilterValues {
  return { ...values, keyword: values.keyword.trim(), poster: values.poster.trim() };
}

const japaneseDate = (value: string) => dayjs(value).format(JAPANESE_DATE_FORMAT);

/**
 * The active conditions as chips (spec §2 board search: a chip summary of the active filters); a
 * chip's removal puts its condition back to NO_FILTERS'.
 */
export function activeFilterChips(values: BoardFilterValues): { key: keyof BoardFilterValues; label: string }[] {
  const chips: { key: keyof BoardFilterValues; label: string }[] = [];
  if (values.keyword) chips.push({ key: "keyword", label: `キーワード: ${values.keyword}` });
  if (values.poster) chips.push({ key: "poster", label: `投稿者: ${values.poster}` });
  if (values.startDate) chips.push({ key: "startDate", label: `開始日: ${japaneseDate(values.startDate)}` });
  if (values.endDate) chips.push({ key: "endDate", label: `終了日: ${japaneseDate(values.endDate)}` });
  // Only when it differs from the default: every member's posts, one's own gender too.
  if (!values.excludeSameSex) chips.push({ key: "excludeSameSex", label: "同性も表示" });
  return chips;
}

/** The applied conditions as chips, each with a button taking it off; nothing when none applies. */
export function FilterChips({
  applied,
  onRemove,
}: {
  applied: BoardFilterValues;
  onRemove: (key: keyof BoardFilterValues) => void;
}) {
  const chips = activeFilterChips(applied);
  if (chips.length === 0) return null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="filter-chips">
      <Text size="sm" c="dimmed" id="board-chips-label">
        検索条件:
      </Text>
      <Group
        gap={6}
        wrap="wrap"
        component="ul"
        aria-labelledby="board-chips-label"
        p={0}
        m={0}
        style={{ listStyle: "none" }}
      >
        {chips.map((chip) => (
          <li key={chip.key}>
            <Badge
              size="lg"
              variant="light"
              color="pink"
              tt="none"
              fw={500}
              data-testid="filter-chip"
              rightSection={
                <CloseButton
                  size="xs"
                  variant="transparent"
                  aria-label={`${chip.label} を解除`}
                  onClick={() => onRemove(chip.key)}
                />
              }
            >
              {chip.label}
            </Badge>
          </li>
        ))}
      </Group>
    </Group>
  );
}
