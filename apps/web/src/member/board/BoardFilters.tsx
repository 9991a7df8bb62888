import { BOARD_KEYWORD_MAX } from "@enmusubi/shared";
import { Button, Collapse, Group, Loader, Paper, SimpleGrid, Switch, TextInput, Title } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { useMediaQuery } from "@mantine/hooks";
import { type FormEvent, useState } from "react";
import { BOARD_TEXT } from "../../features/board";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../../lib/dates";
import { type BoardFilterValues, cleanFilters, NO_FILTERS } from "./FilterChips";

/** The server takes at most 50 characters for the poster. */
const BOARD_POSTER_MAX = 50;

/**
 * Keyword, poster, start and end date (typed in Japanese or picked), same-sex exclusion (on by
 * default), with 検索 and クリア. The conditions apply on 検索 (or Enter); クリア puts back the
 * defaults and applies at once.
 */
export function BoardFilters({
  applied,
  onApply,
  searching,
}: {
  applied: BoardFilterValues;
  onApply: (values: BoardFilterValues) => void;
  searching: boolean;
}) {
  const [draft, setDraft] = useState<BoardFilterValues>(applied);
  const [appliedSeen, setAppliedSeen] = useState(applied);
  // A chip removed outside the form changes what is applied: the form follows.
  if (appliedSeen !== applied) {
    setAppliedSeen(applied);
    setDraft(applied);
  }
  // One thumb at 375 px: the fields fold away on narrow screens (the chips still say what applies).
  const narrow = useMediaQuery("(max-width: 576px)", false, { getInitialValueInEffect: false });
  const [fieldsOpen, setFieldsOpen] = useState(false);
  const showFields = !narrow || fieldsOpen;
  const set = <K extends keyof BoardFilterValues>(key: K, value: BoardFilterValues[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const dateError =
    draft.startDate && draft.endDate && draft.endDate < draft.startDate ? BOARD_TEXT.dateRangeInvalid : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dateError) return;
    onApply(cleanFilters(draft));
  };

  return (
    <Paper withBorder p="sm" component="form" role="search" aria-labelledby="board-filters-title" onSubmit={submit}>
      <Group justify="space-between" gap="xs" mb={showFields ? "xs" : 0}>
        <Title order={3} size="h5" id="board-filters-title">
          検索条件
        </Title>
        {narrow && (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={fieldsOpen}
            aria-controls="board-filter-fields"
            onClick={() => setFieldsOpen((o) => !o)}
          >
            {fieldsOpen ? "検索条件を閉じる" : "検索条件を開く"}
          </Button>
        )}
      </Group>
      {/* Animated only where it folds (narrow screens). Wide, it is a plain box: an opening animation
          left unfinished (a page resized from a phone width, a background tab) would keep the height
          it measured at the narrow layout, a form hundreds of pixels taller than its fields. */}
      <Collapse expanded={showFields} id="board-filter-fields" transitionDuration={narrow ? undefined : 0}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
          <TextInput
            label="キーワード"
            placeholder="例: 食事"
            description="タイトルと内容から探します"
            value={draft.keyword}
            maxLength={BOARD_KEYWORD_MAX}
            onChange={(e) => set("keyword", e.currentTarget.value)}
          />
          <TextInput
            label="投稿者"
            placeholder="例: 花子"
            description="投稿した会員のニックネーム（一部でも可）"
            value={draft.poster}
            maxLength={BOARD_POSTER_MAX}
            onChange={(e) => set("poster", e.currentTarget.value)}
          />
          <DateInput
            label="開始日"
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            placeholder="例: 2026年11月1日"
            description="この日以降の投稿"
            value={draft.startDate || null}
            onChange={(v) => set("startDate", v ?? "")}
            clearable
          />
          <DateInput
            label="終了日"
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            placeholder="例: 2026年11月30日"
            description="この日までの投稿"
            value={draft.endDate || null}
            onChange={(v) => set("endDate", v ?? "")}
            clearable
            error={dateError}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm" gap="sm" wrap="wrap">
          {/* The profile search's switch and wording (SearchFilters.tsx), on by default. */}
          <Switch
            label="同性を除外する"
            checked={draft.excludeSameSex}
            onChange={(e) => set("excludeSameSex", e.currentTarget.checked)}
          />
          <Group gap="sm">
            <Button
              variant="default"
              onClick={() => {
                setDraft(NO_FILTERS);
                onApply(NO_FILTERS);
              }}
            >
              クリア
            </Button>
            {/* Never `loading`: a loading button is disabled, and a search typed and sent (Enter or
                click) while the previous one is still fetching would be dropped without a word. */}
            <Button
              type="submit"
              aria-busy={searching || undefined}
              leftSection={searching ? <Loader size={14} aria-hidden /> : undefined}
            >
              検索
            </Button>
          </Group>
        </Group>
      </Collapse>
    </Paper>
  );
}
