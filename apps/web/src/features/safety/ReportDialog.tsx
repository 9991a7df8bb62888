import { MSG, REPORT_DETAIL_MAX, REPORT_REASONS, type ReportReason, type ReportTargetType } from "@enmusubi/shared";
import { Button, Modal, Radio, Stack, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { SAFETY_TEXT } from "./text";

/** What is being reported, and how the dialog names it (「山田さんのメッセージ」). */
export interface ReportTarget {
  type: ReportTargetType;
  id: string;
  label: string;
}

/**
 * The report dialog (出会い系サイト規制法 art. 12): a reason from the fixed list and free text
 * (required for その他). The server checks everything again; its Japanese message is shown on a
 * refusal (already reported, not found…).
 */
export function ReportDialog({ target, onClose }: { target: ReportTarget | null; onClose: () => void }) {
  const trpc = useTRPC();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [detail, setDetail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const report = useMutation(trpc.safety.report.mutationOptions());

  // A new target starts a fresh form.
  useEffect(() => {
    if (target) {
      setReason(null);
      setDetail("");
      setError(null);
    }
  }, [target]);

  const submit = async () => {
    if (!target) return;
    if (!reason) return setError(MSG.reportReasonInvalid);
    if (reason === "other" && detail.trim() === "") return setError(MSG.reportDetailRequired);
    if (detail.trim().length > REPORT_DETAIL_MAX) return setError(MSG.reportDetailTooLong);
    setError(null);
    try {
      const result = await report.mutateAsync({
        targetType: target.type,
        targetId: target.id,
        reason,
        ...(detail.trim() ? { detail } : {}),
      });
      notifications.show({ color: "green", message: result.message });
      onClose();
    } catch (e) {
      const message = errorMessage(e, SAFETY_TEXT.reportFailed);
      setError(message);
      notifications.show({ color: "red", message });
    }
  };

  return (
    <Modal opened={target !== null} onClose={onClose} title="運営に報告する" centered>
      {target && (
        <Stack gap="md">
          <Text size="sm">
            {target.label}について運営に報告します。報告したことが相手に知らされることはありません。
          </Text>
          <Radio.Group
            label="報告の理由"
            withAsterisk
            value={reason}
            onChange={(v) => {
              setReason(v as ReportReason);
              setError(null);
            }}
            name="report-reason"
          >
            <Stack gap={6} mt={6}>
              {REPORT_REASONS.map((r) => (
                <Radio key={r.value} value={r.value} label={r.label} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label="詳しい内容"
            description={
              reason === "other"
                ? `「その他」の場合は必須です（${REPORT_DETAIL_MAX}文字以内）`
                : `任意（${REPORT_DETAIL_MAX}文字以内）`
            }
            withAsterisk={reason === "other"}
            value={detail}
            onChange={(e) => {
              setDetail(e.currentTarget.value);
              setError(null);
            }}
            rows={4}
            resize="vertical"
          />
          <Text size="xs" c={detail.trim().length > REPORT_DETAIL_MAX ? "red" : "dimmed"} ta="right" aria-live="polite">
            {detail.trim().length} / {REPORT_DETAIL_MAX}
          </Text>
          <FormActions
            error={error}
            onCancel={onClose}
            onSubmit={() => void submit()}
            submitLabel="報告する"
            loading={report.isPending}
          />
        </Stack>
      )}
    </Modal>
  );
}

/** A small 報告 button that opens the dialog for its target (profile, message, board post). */
export function ReportButton({ target, size = "xs" }: { target: ReportTarget; size?: "xs" | "sm" | "compact-xs" }) {
  const [open, setOpen] = useState<ReportTarget | null>(null);
  return (
    <>
      <Button
        size={size}
        variant="subtle"
        color="gray"
        onClick={() => setOpen(target)}
        aria-label={`${target.label}を報告`}
      >
        報告
      </Button>
      <ReportDialog target={open} onClose={() => setOpen(null)} />
    </>
  );
}
