import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router-dom";
import { BOARD_TEXT } from "../../features/board";
import { formatPoints } from "../../lib/format";

/**
 * The board's entry confirmation (spec §4 board view gating, §5 paid action): what entering costs,
 * the balance, and 続ける; short of points it says 「あなたのポイント数が足りません。」 with the way
 * to buy more instead. Shown in the page (not a popup), so arriving never traps the focus.
 */
export function BoardEntry({
  cost,
  balance,
  windowMinutes,
  short,
  entering,
  failure,
  onEnter,
}: {
  cost: number;
  /** The member's points, when known. */
  balance: number | undefined;
  windowMinutes: number;
  /** The balance is below the cost, or the server said so (402). */
  short: boolean;
  entering: boolean;
  failure: string | null;
  onEnter: () => void;
}) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="board-entry-title" maw={560}>
      <Stack gap="sm">
        <Title order={3} size="h4" id="board-entry-title">
          掲示板の閲覧
        </Title>
        <Text data-testid="board-entry-cost">
          掲示板の閲覧には{cost.toLocaleString("ja-JP")}ptが必要です。続けますか？
        </Text>
        <Text size="sm" c="dimmed">
          入室から{windowMinutes}分間は、検索やページの移動、いいね・既読に追加のポイントはかかりません。
        </Text>
        {balance !== undefined && (
          <Text size="sm">
            所持ポイント: <strong data-testid="board-entry-balance">{formatPoints(balance)}</strong>
          </Text>
        )}
        {short ? (
          <Alert color="red" role="alert" title={BOARD_TEXT.notEnoughPoints} data-testid="board-entry-short">
            <Anchor component={Link} to="/user/point-purchase" fw={700}>
              ポイントを購入する
            </Anchor>
          </Alert>
        ) : (
          failure && (
            <Alert color="red" role="alert" title={failure}>
              <Text size="sm">時間をおいてもう一度お試しください。</Text>
            </Alert>
          )
        )}
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to="/user/dashboard" variant="default">
            戻る
          </Button>
          {!short && (
            <Button onClick={onEnter} loading={entering}>
              続ける
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
