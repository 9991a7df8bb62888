import { REPORT_STATUS_LABELS } from "@enmusubi/shared";
import { Alert, Badge, Button, Card, Group, Stack, Text } from "@mantine/core";
import { countLabel } from "../../lib/count-label";
import { formatDateTime } from "../../lib/format";

import { PartyLine, REASON_LABELS, type Report, ReportContext, TARGET_LABELS } from "./ReportContext";

/** One report in the queue: reason, target, parties, the reporter's comment, the content, and what can be done. */
export function ReportCard({
  report,
  busy,
  onDismiss,
  onRemove,
  onSuspend,
}: {
  report: Report;
  busy: boolean;
  onDismiss(): void;
  onRemove(): void;
  onSuspend(): void;
}) {
  return (
    <Card withBorder padding="sm" data-testid="report-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Badge color="red" variant="light">
              {REASON_LABELS[report.reason]}
            </Badge>
            <Badge color="gray" variant="outline">
              {TARGET_LABELS[report.targetType]}
            </Badge>
            {report.status !== "open" && <Badge color="teal">{REPORT_STATUS_LABELS[report.status]}</Badge>}
          </Group>
          <Text size="xs" c="dimmed">
            報告日時 {formatDateTime(report.createdAt)}
          </Text>
        </Group>
        <PartyLine label="報告者" party={report.reporter} />
        <Group gap="xs" wrap="wrap">
          <PartyLine label="対象会員" party={report.targetUser} />
          <Text size="xs" c={report.recentReportsAgainstUser > 1 ? "red" : "dimmed"}>
            直近90日の報告 {countLabel(report.recentReportsAgainstUser, report.recentReportsCapped)}
          </Text>
        </Group>
        {report.detail && (
          <Alert color="yellow" variant="light" p="xs" title="報告者のコメント">
            <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {report.detail}
            </Text>
          </Alert>
        )}
        <ReportContext report={report} />
        {report.status === "open" ? (
          <Group justify="flex-end" gap="xs" wrap="wrap">
            <Button variant="default" size="xs" disabled={busy} onClick={onDismiss}>
              対応不要
            </Button>
            {report.targetType !== "member" && (
              <Button color="red" variant="light" size="xs" disabled={busy} onClick={onRemove}>
                内容を削除
              </Button>
            )}
            <Button color="red" size="xs" disabled={busy} onClick={onSuspend}>
              会員を利用停止
            </Button>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            対応: {report.handledBy?.name ?? "—"} ／ {formatDateTime(report.handledAt)}
            {report.handledNote ? ` ／ メモ: ${report.handledNote}` : ""}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
