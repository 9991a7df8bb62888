import { MSG, SCREENING_CATEGORIES, SCREENING_PATTERN_MAX, type ScreeningCategory } from "@enmusubi/shared";
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { countLabel } from "../../lib/count-label";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { PagePagination } from "../../ui/PagePagination";
import { RuleFormModal } from "./RuleFormModal";
import { RuleCards, type RuleHandlers, RuleTable } from "./RuleList";
import { SCREENING_TEXT } from "./text";
import type { ScreeningRule } from "./types";

type CategoryFilter = "" | ScreeningCategory;

/**
 * NGワード・検知ルール (decision 0042): the rules every member's message, board post, scheduled
 * message, name and 自己紹介 is screened against — words and regular expressions, each with a
 * category and an action (伏せ字 / 保留 / 拒否). Filtered by category and a part of the word or
 * note, paged on the server; added and edited in a dialog, deleted after a confirmation. A change
 * applies to every server within seconds. Cards on a phone, a table on wider screens.
 */
export function ScreeningRules() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [category, setCategory] = useState<CategoryFilter>("");
  const [draft, setDraft] = useState("");
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ScreeningRule | null>(null);
  const [adding, setAdding] = useState(false);
  const phone = useMediaQuery("(max-width: 48em)", undefined, { getInitialValueInEffect: false });

  const list = useQuery({
    ...trpc.adminScreening.rules.queryOptions({
      page,
      ...(category ? { category } : {}),
      ...(keyword ? { keyword } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.adminScreening.rules.pathKey() });
  const remove = useMutation(trpc.adminScreening.deleteRule.mutationOptions());

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(draft.trim());
    setPage(1);
  };

  const askDelete = async (rule: ScreeningRule) => {
    const ok = await confirmAction({
      title: "ルールの削除",
      message: `「${rule.pattern}」（${SCREENING_TEXT.categories[rule.category]}・${SCREENING_TEXT.actions[rule.action]}）を削除しますか？一時的に止めるだけなら、編集で「無効」にできます。`,
      irreversible: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync({ id: rule.id });
      notifications.show({ color: "green", message: MSG.screeningRuleDeleted });
      // The last rule of a page gone: show the page before it.
      if (list.data?.rules.length === 1 && page > 1) setPage(page - 1);
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error, "ルールの削除に失敗しました。") });
    } finally {
      void refresh();
    }
  };

  const handlers: RuleHandlers = {
    onEdit: setEditing,
    onDelete: (rule) => void askDelete(rule),
    deletingId: remove.isPending ? remove.variables?.id : undefined,
  };
  const data = list.data;
  const filtered = Boolean(category || keyword);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2}>NGワード・検知ルール</Title>
          <Text size="sm" c="dimmed" data-testid="rule-total">
            {data
              ? `${filtered ? "該当" : "ルール数"} ${countLabel(data.pagination.total, data.pagination.totalCapped)}`
              : "—"}
          </Text>
        </div>
        <Button onClick={() => setAdding(true)}>ルールを追加</Button>
      </Group>
      <Text size="sm" c="dimmed">
        会員のメッセージ・掲示板の投稿・予約メッセージ・ニックネーム・自己紹介をこのルールで確認します。複数のルールに一致したときは、拒否・保留・伏せ字の順に強い対応をとります。変更は数秒ですべてのサーバーに反映されます。
      </Text>

      <Paper withBorder p="sm" component="form" onSubmit={submitSearch} role="search" aria-label="ルールの検索">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label="分類"
            data={[
              { value: "", label: "すべて" },
              ...SCREENING_CATEGORIES.map((c) => ({ value: c.value, label: c.label })),
            ]}
            value={category}
            onChange={(v) => {
              setCategory((v as CategoryFilter) ?? "");
              setPage(1);
            }}
            allowDeselect={false}
            w={150}
          />
          <TextInput
            label="キーワード"
            placeholder="言葉・パターン・メモの一部"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            maxLength={SCREENING_PATTERN_MAX}
            style={{ flex: 1, minWidth: 180 }}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft("");
                setKeyword("");
                setCategory("");
                setPage(1);
              }}
            >
              クリア
            </Button>
          )}
        </Group>
      </Paper>

      {list.isError && (
        <Alert color="red" title="ルールの取得に失敗しました。" role="alert">
          <Group gap="sm">
            <Text size="sm">{errorMessage(list.error, "通信状況を確認して、もう一度お試しください。")}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void list.refetch()}>
              再読み込み
            </Button>
          </Group>
        </Alert>
      )}
      {list.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {phone ? (
        <RuleCards rules={data?.rules} handlers={handlers} />
      ) : (
        <RuleTable rules={data?.rules} handlers={handlers} />
      )}
      {data && <PagePagination total={data.pagination.totalPages} value={page} onChange={setPage} scrollToTop />}

      <RuleFormModal
        opened={adding || editing !== null}
        rule={editing}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
        onSaved={() => void refresh()}
      />
    </Stack>
  );
}
