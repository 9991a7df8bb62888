import { Badge, Box, Burger, Button, Drawer, Group, NavLink, Stack, Text, Title } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Link, useLocation } from "react-router-dom";
import { Footer } from "../layout/Footer";
import { Loading } from "../layout/Loading";
import { formatPoints } from "../lib/format";
import { usePointsDeductedListener } from "../lib/points";
import { useLogout } from "../lib/useLogout";
import { MemberCard } from "./MemberCard";
import { useUnreadCount, useUnreadCountSubscription } from "./mail/useUnreadCount";
import classes from "./member.module.css";
import { MEMBER_SECTIONS, MENU_GROUPS, SECTION_PATHS } from "./sections";
import { useCurrentUser } from "./useCurrentUser";
import { useReferenceLists } from "./useReferenceLists";
import { VerificationBanner } from "./verification/VerificationBanner";

/**
 * The member shell (spec §2): sticky header with brand and logout, side menu, at 768 px or less a
 * toggle opening a drawer with an overlay; the member card with live points.
 */
export default function MemberShell() {
  const { pathname } = useLocation();
  const [drawerOpen, drawer] = useDisclosure(false);
  const narrow = useMediaQuery("(max-width: 768px)");
  const logout = useLogout();
  const { data: user, isLoading, isError } = useCurrentUser();
  usePointsDeductedListener();
  // Spec §2 メール > 未読: the unread count, live (SSE), without reloading.
  useUnreadCountSubscription();
  const unread = useUnreadCount();
  // Spec §2: the shell loads the occupation and annual-income lists for the profile modal.
  useReferenceLists();

  const key = SECTION_PATHS[pathname.replace(/^\/user\/?/, "").replace(/\/$/, "")];
  const section = key ? MEMBER_SECTIONS[key] : undefined;

  const menu = (
    <Stack gap="md">
      {user && <MemberCard user={user} />}
      <nav aria-label="会員メニュー">
        {MENU_GROUPS.map((group) => {
          const items = group.keys.flatMap((k) => {
            const s = MEMBER_SECTIONS[k];
            return s ? [{ key: k, ...s }] : [];
          });
          if (items.length === 0) return null;
          return (
            <Box key={group.label} mb="sm">
              <Text size="xs" fw={700} c="dimmed" px="sm" mb={4}>
                {group.label}
              </Text>
              {items.map((s) => (
                <NavLink
                  key={s.key}
                  component={Link}
                  to={`/user/${s.path}`}
                  label={s.label}
                  active={s.key === key}
                  onClick={drawer.close}
                  rightSection={
                    s.key === "unreadEmails" && unread !== undefined && unread > 0 ? (
                      <Badge size="sm" color="pink" variant="filled" data-testid="menu-unread-count">
                        {unread}件
                      </Badge>
                    ) : undefined
                  }
                />
              ))}
            </Box>
          );
        })}
      </nav>
    </Stack>
  );

  return (
    <div className={classes.shell}>
      <header className={classes.header}>
        <Group gap="sm" wrap="nowrap">
          {narrow && <Burger opened={drawerOpen} onClick={drawer.toggle} size="sm" aria-label="メニューを開く" />}
          <Title order={1} size="h4" c="pink.7">
            縁結び
          </Title>
        </Group>
        <Group gap="sm" wrap="nowrap">
          {unread !== undefined && unread > 0 && (
            <Button
              component={Link}
              to="/user/unread-emails"
              variant="light"
              size="compact-sm"
              data-testid="header-unread-count"
            >
              未読 {unread}件
            </Button>
          )}
          {user && (
            <Text size="sm" fw={700} c="pink.7" aria-label="所持ポイント">
              {formatPoints(user.points)}
            </Text>
          )}
          <Button
            component={Link}
            to="/user/point-purchase"
            variant="light"
            size="compact-sm"
            aria-label="ポイント購入"
            data-testid="header-buy-points"
          >
            {narrow ? "購入" : "ポイント購入"}
          </Button>
          <Button variant="default" size="xs" onClick={logout}>
            ログアウト
          </Button>
        </Group>
      </header>
      <div className={classes.body}>
        {!narrow && <aside className={classes.aside}>{menu}</aside>}
        <main className={classes.main}>
          {user && <VerificationBanner />}
          {isLoading ? (
            <Loading />
          ) : isError || !user ? (
            <Text c="red">会員情報の取得に失敗しました。再読み込みしてください。</Text>
          ) : section ? (
            <section.component />
          ) : (
            <Text>ページが見つかりません</Text>
          )}
        </main>
      </div>
      <Footer />
      <Drawer
        opened={drawerOpen && !!narrow}
        onClose={drawer.close}
        title="メニュー"
        size="80%"
        overlayProps={{ backgroundOpacity: 0.4 }}
      >
        {menu}
      </Drawer>
    </div>
  );
}
