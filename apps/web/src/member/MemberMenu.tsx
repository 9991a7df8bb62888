import { Badge, Box, Button, NavLink, Stack, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { MemberCard } from "./MemberCard";
import { MEMBER_SECTIONS, MENU_GROUPS } from "./sections";
import type { CurrentUser } from "./useCurrentUser";

/**
 * The member card and the menu by group (the unread count beside 未読), shown in the side column
 * or, when narrow, in the drawer with ログアウト at its end.
 */
export function MemberMenu({
  user,
  loading,
  activeKey,
  unread,
  narrow,
  onNavigate,
  onLogout,
}: {
  user: CurrentUser | undefined;
  /** The member's data is on its way: the card is drawn with placeholders (none when it failed). */
  loading: boolean;
  activeKey: string | undefined;
  unread: number | undefined;
  narrow: boolean;
  onNavigate(): void;
  onLogout(): void;
}) {
  return (
    <Stack gap="md">
      {(user || loading) && <MemberCard user={user} />}
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
                  active={s.key === activeKey}
                  onClick={onNavigate}
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
      {narrow && (
        <Button variant="default" onClick={onLogout}>
          ログアウト
        </Button>
      )}
    </Stack>
  );
}
