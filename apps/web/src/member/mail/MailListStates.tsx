import { PARTNER_SEARCH_MAX } from "@enmusubi/shared";
import { Button, CloseButton, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { type ComponentProps, type ReactNode, useEffect, useState } from "react";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";

/** The shared list states, with the mail items stacked and the page buttons under them. */
export function MailListStates({
  children,
  page,
  totalPages,
  onPage,
  ...states
}: Omit<ComponentProps<typeof ListStates>, "emptyText"> & {
  emptyText: string;
  children: ReactNode;
  page: number;
  totalPages: number | undefined;
  onPage(page: number): void;
}) {
  // On a phone the page buttons stay on one line (down to 320 px): fewer neighbours, smaller buttons.
  const phone = useMediaQuery("(max-width: 36em)");
  return (
    <ListStates {...states}>
      <Stack gap="sm">{children}</Stack>
      <PagePagination
        total={totalPages ?? 1}
        value={page}
        siblings={phone ? 0 : 1}
        {...(phone ? { size: "sm" as const } : {})}
        onChange={onPage}
        scrollToTop
        mt="sm"
      />
    </ListStates>
  );
}

/**
 * The sender / recipient search (a name, or part of it, searched on the server; decision 0029) and the
 * count of every message it finds. Searching starts again at page 1; clearing shows everyone.
 */
export function PartnerSearch({
  label,
  value,
  onSearch,
  total,
}: {
  label: string;
  value: string;
  onSearch(partner: string): void;
  total: number | undefined;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(draft);
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={label}
          placeholder="ニックネームの一部"
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          maxLength={PARTNER_SEARCH_MAX}
          w={{ base: "100%", xs: 260 }}
          rightSection={
            draft ? (
              <CloseButton
                size="sm"
                aria-label="検索をクリア"
                onClick={() => {
                  setDraft("");
                  onSearch("");
                }}
              />
            ) : null
          }
        />
        <Button type="submit" variant="light">
          検索
        </Button>
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="mail-count" pb={8}>
          {total === undefined ? "" : `${total.toLocaleString("ja-JP")}件`}
        </Text>
      </Group>
    </form>
  );
}
