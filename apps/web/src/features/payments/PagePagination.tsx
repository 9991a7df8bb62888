import { Group, Pagination } from "@mantine/core";

/** Page buttons named in Japanese for screen readers; nothing when there is one page. */
export function PagePagination({
  total,
  value,
  onChange,
}: {
  total: number;
  value: number;
  onChange(page: number): void;
}) {
  if (total <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={total}
        value={value}
        onChange={onChange}
        siblings={1}
        boundaries={1}
        getControlProps={(control) => ({
          "aria-label": control === "previous" ? "前のページ" : control === "next" ? "次のページ" : undefined,
        })}
        getItemProps={(p) => ({ "aria-label": `${p}ページ` })}
      />
    </Group>
  );
}
