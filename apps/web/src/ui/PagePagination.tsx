import { Group, type MantineSize, type MantineSpacing, Pagination } from "@mantine/core";

/**
 * How the page buttons are named for screen readers: "3ページ", "3ページ目", or left to Mantine
 * (the moderation and verification queues, which never named them).
 */
export type PageNames = "ページ" | "ページ目" | "none";

/**
 * The numbered pager every paged list uses (Mantine Pagination, 前のページ / 次のページ controls);
 * nothing when there is one page. `centered` (the default) puts it in a centred row; otherwise it
 * sits where the list's Stack puts it. `scrollToTop`: a new page starts at the top of the screen.
 */
export function PagePagination({
  total,
  value,
  onChange,
  names = "ページ",
  siblings = 1,
  centered = true,
  mt,
  size,
  scrollToTop = false,
}: {
  total: number;
  value: number;
  onChange(page: number): void;
  names?: PageNames;
  siblings?: number;
  centered?: boolean;
  mt?: MantineSpacing;
  /** The controls' size (Mantine's default, md, unless told). */
  size?: MantineSize;
  scrollToTop?: boolean;
}) {
  if (total <= 1) return null;
  const pagination = (
    <Pagination
      total={total}
      value={value}
      onChange={(page) => {
        onChange(page);
        if (scrollToTop) window.scrollTo({ top: 0 });
      }}
      siblings={siblings}
      boundaries={1}
      {...(size ? { size } : {})}
      {...(names === "none"
        ? {}
        : {
            getControlProps: (control: string) => ({
              "aria-label": control === "previous" ? "前のページ" : control === "next" ? "次のページ" : undefined,
            }),
            getItemProps: (page: number) => ({ "aria-label": `${page}${names}` }),
          })}
    />
  );
  if (!centered) return pagination;
  return (
    <Group justify="center" mt={mt}>
      {pagination}
    </Group>
  );
}
