import {
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  NavLink,
  ScrollArea,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, Route, Routes, useLocation } from "react-router-dom";
import { Footer } from "../layout/Footer";
import { useTRPC } from "../lib/trpc";
import { useLogout } from "../lib/useLogout";
import { usePageTitle } from "../lib/usePageTitle";
import { MAIN_CONTENT_ID, SkipLink } from "../ui/SkipLink";
import { ADMIN_SECTIONS, type AdminSection, DEFAULT_ADMIN_PATH } from "./sections";

const MESSAGE_GROUP_LABEL = "メッセージ管理";

/**
 * The menu's work-waiting counts are polled this often (docs/decisions/0036: a few indexed counts
 * per administrator tab, rather than a second live stream).
 */
export const WAITING_REFRESH_MS = 30_000;

/** The work waiting beside the menu's queues, refreshed every 30 s and on return to the tab. */
function useWaitingCounts() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.adminDashboard.waiting.queryOptions(),
    refetchInterval: WAITING_REFRESH_MS,
    refetchOnWindowFocus: true,
  }).data;
}

function WaitingBadge({ section, waiting }: { section: AdminSection; waiting: ReturnType<typeof useWaitingCounts> }) {
  const tally = section.waiting && waiting ? waiting[section.waiting] : undefined;
  if (!tally || tally.value === 0) return null;
  const text = `${tally.value.toLocaleString("ja-JP")}${tally.capped ? "+" : ""}`;
  return (
    <Badge size="sm" color="red" variant="filled" data-testid={`menu-count-${section.path}`}>
      {text}
      <VisuallyHidden>件の対応待ち</VisuallyHidden>
    </Badge>
  );
}

/** The back-office shell: side menu collapsing strictly below 768 px, header, logout, footer. */
export default function AdminShell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const current = pathname.replace(/^\/admin\/?/, "").split("/")[0] || DEFAULT_ADMIN_PATH;
  const inMessageGroup = ADMIN_SECTIONS.some((s) => s.group === "messages" && s.path === current);
  const [messagesOpened, setMessagesOpened] = useState(inMessageGroup);
  // Entering a message screen (a link, the address bar) opens its group; leaving keeps the choice.
  useEffect(() => {
    if (inMessageGroup) setMessagesOpened(true);
  }, [inMessageGroup]);
  const logout = useLogout();
  const waiting = useWaitingCounts();
  const menu = ADMIN_SECTIONS.filter((s) => s.inMenu);
  const messageItems = menu.filter((s) => s.group === "messages");
  const defaultSection = ADMIN_SECTIONS.find((s) => s.path === DEFAULT_ADMIN_PATH);
  const section = ADMIN_SECTIONS.find((s) => s.path === current) ?? defaultSection;
  usePageTitle(section ? `${section.label}（管理画面）` : "管理画面");

  const item = (section: (typeof ADMIN_SECTIONS)[number]) => (
    <NavLink
      key={section.path}
      component={Link}
      to={`/admin/${section.path}`}
      label={section.label}
      rightSection={<WaitingBadge section={section} waiting={waiting} />}
      active={current === section.path}
      onClick={close}
    />
  );

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 768, collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <SkipLink />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="メニューを開く" />
            <Title order={1} size="h4" c="pink.7">
              縁結び 管理画面
            </Title>
          </Group>
          <Button variant="default" size="xs" onClick={logout}>
            ログアウト
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="管理メニュー">
        <ScrollArea>
          {menu.map((section) => {
            if (!section.group) return item(section);
            // The message group sits where its first entry is listed (spec §2 menu order).
            if (section !== messageItems[0]) return null;
            return (
              <NavLink
                key="group-messages"
                // A real button (Mantine draws an <a> without href: not reachable by keyboard).
                component="button"
                type="button"
                aria-expanded={messagesOpened}
                label={MESSAGE_GROUP_LABEL}
                opened={messagesOpened}
                onChange={setMessagesOpened}
                active={inMessageGroup}
                variant="subtle"
              >
                {messageItems.map(item)}
              </NavLink>
            );
          })}
          {menu.length === 0 && (
            <Text size="sm" c="dimmed" p="sm">
              メニューはまだありません。
            </Text>
          )}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Routes>
          {ADMIN_SECTIONS.map((s) => (
            <Route key={s.path} path={s.path} element={<s.component />} />
          ))}
          <Route path="*" element={defaultSection ? <defaultSection.component /> : <Title order={2}>管理画面</Title>} />
        </Routes>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
