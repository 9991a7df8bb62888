import { Button, Collapse, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatPoints } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { ScheduledList } from "../mail/ScheduledList";
import { useReferenceLists } from "../useReferenceLists";
import { ProfileDetailModal } from "./ProfileDetailModal";
import type { SearchView } from "./ProfileResult";
import { EMPTY, type Filters, SearchFilterFields, toInput } from "./SearchFilters";
import { SearchResults } from "./SearchResults";
import { SendToMemberDialog } from "./SendToMemberDialog";
import { DISCOVERY_TEXT } from "./text";
import type { PublicProfile } from "./types";
import { useFavoriteToggle } from "./useFavoriteToggle";
import { usePaidProfileView } from "./usePaidView";

const VIEWS: { value: SearchView; label: string }[] = [
  { value: "grid", label: "グリッド" },
  { value: "card", label: "カード" },
  { value: "list", label: "リスト" },
];

/**
 * プロフィール検索 (spec §2): filters, grid / card / list views, paging on the server, the paid
 * detail popup, the message popup, favourite toggle and this screen's scheduled messages.
 */
export function ProfileSearch() {
  const trpc = useTRPC();
  const { occupations, annualIncomes } = useReferenceLists();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [view, setView] = useState<SearchView>("grid");
  const [writing, setWriting] = useState<PublicProfile | null>(null);
  // One thumb at 375 px: the filters fold away on narrow screens so the results come first.
  const narrow = useMediaQuery("(max-width: 576px)", false, { getInitialValueInEffect: false });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const showFilters = !narrow || filtersOpen;
  const paid = usePaidProfileView();
  const favorite = useFavoriteToggle();

  const search = useQuery({
    ...trpc.members.search.queryOptions(toInput(applied, page)),
    placeholderData: keepPreviousData,
  });
  const result = search.data;
  const searching = search.isFetching && !search.isLoading;
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const ageError =
    draft.ageMin !== "" && draft.ageMax !== "" && draft.ageMin > draft.ageMax
      ? "下限は上限以下にしてください"
      : undefined;

  const actions = {
    onView: (p: PublicProfile) => void paid.open(p.id),
    onMessage: setWriting,
    onFavorite: (p: PublicProfile, on: boolean) => void favorite.set(p.id, on),
    favoriteBusy: favorite.busy,
  };

  return (
    <Stack gap="md">
      <Title order={2}>プロフィール検索</Title>
      <Paper withBorder p="sm" component="section" aria-labelledby="search-filters">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (ageError) return;
            setApplied(draft);
            setPage(1);
          }}
        >
          <Group justify="space-between" gap="xs" mb={showFilters ? "xs" : 0}>
            <Title order={3} size="h5" id="search-filters">
              検索条件
            </Title>
            {narrow && (
              <Button
                variant="subtle"
                size="compact-sm"
                aria-expanded={filtersOpen}
                aria-controls="search-filter-fields"
                onClick={() => setFiltersOpen((o) => !o)}
              >
                {filtersOpen ? "検索条件を閉じる" : "検索条件を開く"}
              </Button>
            )}
          </Group>
          {/* Animated only where it folds (narrow screens). Wide, it is a plain box: an opening animation
              left unfinished (a page resized from a phone width, a background tab) would keep the height
              it measured at the narrow layout, a form hundreds of pixels taller than its fields. */}
          <Collapse expanded={showFilters} id="search-filter-fields" transitionDuration={narrow ? undefined : 0}>
            <SearchFilterFields
              draft={draft}
              onChange={set}
              ageError={ageError}
              occupations={occupations.data ?? []}
              annualIncomes={annualIncomes.data ?? []}
            />
            <Group justify="flex-end" mt="sm" gap="sm">
              <Button
                variant="default"
                onClick={() => {
                  setDraft(EMPTY);
                  setApplied(EMPTY);
                  setPage(1);
                }}
              >
                条件をクリア
              </Button>
              {/* Never `loading`: a loading button is disabled, and a search sent while the previous
                  one is still fetching would be dropped without a word. */}
              <Button
                type="submit"
                aria-busy={searching || undefined}
                leftSection={searching ? <Loader size={14} aria-hidden /> : undefined}
              >
                検索
              </Button>
            </Group>
          </Collapse>
        </form>
      </Paper>

      <ScheduledList source="user:search" />

      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="search-count">
          {result ? `${result.total.toLocaleString("ja-JP")}件${result.totalCapped ? "以上" : ""}` : ""}
        </Text>
        <SegmentedControl aria-label="表示形式" data={VIEWS} value={view} onChange={(v) => setView(v as SearchView)} />
      </Group>

      {/* Above the results, where a member reads it before opening a profile (not under a page of cards). */}
      <Text size="xs" c="dimmed" data-testid="profile-view-cost">
        プロフィール詳細の閲覧には{paid.cost > 0 ? formatPoints(paid.cost) : "ポイント"}
        が必要です。
      </Text>

      <ListStates
        isLoading={search.isLoading}
        isError={search.isError}
        error={search.error}
        errorText={DISCOVERY_TEXT.searchFailed}
        onRetry={() => void search.refetch()}
        isEmpty={(result?.profiles.length ?? 0) === 0}
        emptyText={DISCOVERY_TEXT.noResults}
      >
        <SearchResults view={view} profiles={result?.profiles ?? []} actions={actions} pendingId={paid.pendingId} />
        {result && <PagePagination total={result.totalPages} value={page} onChange={setPage} scrollToTop mt="md" />}
      </ListStates>

      <ProfileDetailModal profile={paid.shown} onClose={paid.close} />
      <SendToMemberDialog recipient={writing} onClose={() => setWriting(null)} source="user:search" emojiSize="large" />
    </Stack>
  );
}
