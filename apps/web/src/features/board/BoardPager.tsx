import { Button, Group, Text } from "@mantine/core";
import type { BoardPagination } from "./types";

/** 前へ / 「2 / 5ページ（全43件）」 / 次へ under a board list (spec §9: 10 posts a page). */
export function BoardPager({
  pagination,
  onChange,
  label,
}: {
  pagination: BoardPagination;
  onChange: (page: number) => void;
  label: string;
}) {
  if (pagination.totalPages <= 1) return null;
  return (
    <Group component="nav" aria-label={label} gap="sm" justify="center" wrap="nowrap">
      <Button
        size="compact-md"
        variant="default"
        disabled={!pagination.hasPrevPage}
        onClick={() => onChange(pagination.currentPage - 1)}
      >
        前へ
      </Button>
      <Text size="sm" aria-live="polite" data-testid="board-page">
        {pagination.currentPage} / {pagination.totalPages}
        {pagination.totalIsLowerBound ? "ページ以上" : "ページ"}
      </Text>
      <Button
        size="compact-md"
        variant="default"
        disabled={!pagination.hasNextPage}
        onClick={() => onChange(pagination.currentPage + 1)}
      >
        次へ
      </Button>
    </Group>
  );
}
