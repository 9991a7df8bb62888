import { Anchor, Burger, Button, Group, Text, Title, VisuallyHidden } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { lazy, Suspense, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { Footer } from "../layout/Footer";
import { Loading } from "../layout/Loading";
import { formatPoints } from "../lib/format";
import { useIdle } from "../lib/idle";
import { usePointsDeductedListener } from "../lib/points";
import { useLogout } from "../lib/useLogout";
import { usePageTitle } from "../lib/usePageTitle";
import { MAIN_CONTENT_ID, SkipLink } from "../ui/SkipLink";
import { ConsentGate } from "./ConsentGate";
import { MemberMenu } from "./MemberMenu";
import { useUnreadCount, useUnreadCountSubscription } from "./mail/useUnreadCount";
import classes from "./member.module.css";
import { MEMBER_SECTIONS, sectionKeyOf } from "./sections";
import { useCurrentUser } from "./useCurrentUser";
import { useReferenceLists } from "./useReferenceLists";
import { VerificationBanner } from "./verification/VerificationBanner";

const loadMenuDrawer = () => import("./MenuDrawer");
const MenuDrawer = lazy(loadMenuDrawer);

/** An envelope, beside the unread count where the header has no room for the word 未読. */
function MailIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3 7 9 6 9-6" />
    </svg>
  );
}

/**
 * What the shell starts once the browser is idle after the first screen is drawn: nothing on that
 * screen waits for it. A component of its own, so its answers do not redraw the shell.
 */
function AfterFirstScreen() {
  const idle = useIdle();
  // Spec §2 メール (メッセージ) > 未読: the unread count, live (SSE), without reloading.
  useUnreadCountSubscription({ enabled: idle });
  // Spec §2: the shell loads the occupation and annual-income lists for the profile modal.
  useReferenceLists({ enabled: idle });
  return null;
}

/**
 * The member shell (spec §2): sticky header with brand and logout, side menu, at 768 px or less a
 * toggle opening a drawer with an overlay; the member card with live points. When narrow, the
 * header keeps the unread count (an envelope and the number), the points and 購入, and logout
 * moves to the end of the drawer's menu, so nothing is clipped at 375 px.
 */
export default function MemberShell() {
  const { pathname } = useLocation();
  const [drawerOpen, drawer] = useDisclosure(false);
  // The drawer is loaded on the first opening and then stays mounted (it closes with its transition).
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  // Read at the first render, not in an effect: a phone would otherwise draw the side menu once
  // and then the narrow layout.
  const narrow = useMediaQuery("(max-width: 768px)", undefined, { getInitialValueInEffect: false });
  const logout = useLogout();
  const { data: user, isLoading, isError } = useCurrentUser();
  usePointsDeductedListener();
  const unread = useUnreadCount();

  const key = sectionKeyOf(pathname);
  const section = key ? MEMBER_SECTIONS[key] : undefined;
  usePageTitle(section ? (section.title ?? section.label) : "ページが見つかりません");

  const menu = (
    <MemberMenu
      user={user}
      loading={isLoading}
      activeKey={key}
      unread={unread}
      narrow={!!narrow}
      onNavigate={drawer.close}
      onLogout={logout}
    />
  );

  return (
    <div className={classes.shell}>
      <SkipLink />
      <AfterFirstScreen />
      <header className={classes.header}>
        <Group gap={narrow ? 6 : "sm"} wrap="nowrap" className={classes.start}>
          {narrow && (
            <Burger
              opened={drawerOpen}
              onClick={() => {
                setDrawerLoaded(true);
                drawer.toggle();
              }}
              onPointerEnter={loadMenuDrawer}
              onFocus={loadMenuDrawer}
              size="sm"
              aria-label="メニューを開く"
            />
          )}
          <Title order={1} size="h4" c="pink.7" className={classes.brand}>
            縁結び
          </Title>
        </Group>
        <Group gap={narrow ? 6 : "sm"} wrap="nowrap" className={classes.badges}>
          {unread !== undefined && unread > 0 && (
            <Button
              component={Link}
              to="/user/unread-emails"
              variant="light"
              size={narrow ? "compact-xs" : "compact-sm"}
              leftSection={narrow ? <MailIcon /> : undefined}
              className={classes.badge}
              data-testid="header-unread-count"
            >
              {narrow ? (
                <>
                  <VisuallyHidden>未読 </VisuallyHidden>
                  {unread}件
                </>
              ) : (
                `未読 ${unread}件`
              )}
            </Button>
          )}
          {user && (
            // The balance leads to how points are spent (ポイントの使い方); the link is
            // named by what it shows (axe: label-content-name-mismatch), the balance by its label.
            <Text size="sm" fw={700} aria-label="所持ポイント" className={classes.points}>
              <Anchor
                component={Link}
                to="/user/points-usage"
                inherit
                title="ポイントの使い方"
                className={classes.points}
                data-testid="header-points"
              >
                {formatPoints(user.points)}
              </Anchor>
            </Text>
          )}
          <Button
            component={Link}
            to="/user/point-purchase"
            variant="light"
            size={narrow ? "compact-xs" : "compact-sm"}
            className={classes.badge}
            aria-label="ポイント購入"
            data-testid="header-buy-points"
          >
            {narrow ? "購入" : "ポイント購入"}
          </Button>
          {!narrow && (
            <Button variant="default" size="xs" onClick={logout}>
              ログアウト
            </Button>
          )}
        </Group>
      </header>
      <div className={classes.body}>
        {!narrow && <aside className={classes.aside}>{menu}</aside>}
        <main className={classes.main} id={MAIN_CONTENT_ID} tabIndex={-1}>
          {user && <VerificationBanner />}
          {isLoading && !section?.drawsWhileLoading ? (
            <Loading />
          ) : !isLoading && (isError || !user) ? (
            <Text c="red">会員情報の取得に失敗しました。再読み込みしてください。</Text>
          ) : section ? (
            <ConsentGate>
              <Suspense fallback={<Loading />}>
                <section.component />
              </Suspense>
            </ConsentGate>
          ) : (
            <Text>ページが見つかりません</Text>
          )}
        </main>
      </div>
      <Footer />
      {drawerLoaded && (
        <Suspense fallback={null}>
          <MenuDrawer opened={drawerOpen && !!narrow} onClose={drawer.close}>
            {menu}
          </MenuDrawer>
        </Suspense>
      )}
    </div>
  );
}
