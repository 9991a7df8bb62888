import { Button, Group, Text } from "@mantine/core";
import { pageWindow } from "./pageWindow";

/** Previous / page buttons (window of 5, ellipses) / next (spec §2 email management, §9). */
export function Pager({
  page,
  totalPages,
  onChange,
  label,
}: {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <Group component="nav" aria-label={label} gap={4} justify="center" wrap="wrap">
      <Button size="compact-sm" variant="default" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        前へ
      </Button>
      {pageWindow(page, totalPages).map((item) =>
        typeof item === "number" ? (
          <Button
            key={item}
            size="compact-sm"
            variant={item === page ? "filled" : "default"}
            aria-current={item === page ? "page" : undefined}
            aria-label={`${item}ページ目`}
            onClick={() => onChange(item)}
          >
            {item}
          </Button>
        ) : (
          <Text key={item} component="span" px={4} aria-hidden>
            …
          </Text>
        ),
      )}
      <Button size="compact-sm" variant="default" disabled={page >= totalPages} onClick={() => onChange(page + 1)}>
        次へ
      </Button>
    </Group>
  );
}
