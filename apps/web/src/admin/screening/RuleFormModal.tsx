import {
  MSG,
  SCREENING_ACTIONS,
  SCREENING_CATEGORIES,
  SCREENING_NOTE_MAX,
  SCREENING_PATTERN_MAX,
  type ScreeningAction,
  type ScreeningCategory,
  type ScreeningRuleKind,
} from "@enmusubi/shared";
import { Group, Modal, Radio, Select, Stack, Switch, Text, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { SCREENING_TEXT } from "./text";
import type { ScreeningRule } from "./types";

interface Values {
  kind: ScreeningRuleKind;
  pattern: string;
  category: ScreeningCategory;
  action: ScreeningAction;
  note: string;
  enabled: boolean;
}

const BLANK: Values = { kind: "word", pattern: "", category: "contact", action: "mask", note: "", enabled: true };

/**
 * Adds a screening rule (`rule` null) or edits one: word or pattern, the word or the regular
 * expression, its category and action, the administrators' note, and whether it is in force. The
 * server checks what only it can (a valid expression, a word that still matches something, no
 * duplicate) and its Japanese message is shown here.
 */
export function RuleFormModal({
  opened,
  rule,
  onClose,
  onSaved,
}: {
  opened: boolean;
  rule: ScreeningRule | null;
  onClose(): void;
  onSaved(): void;
}) {
  const trpc = useTRPC();
  const [values, setValues] = useState<Values>(BLANK);
  const [error, setError] = useState<string | null>(null);
  const [patternError, setPatternError] = useState<string | null>(null);
  const create = useMutation(trpc.adminScreening.createRule.mutationOptions());
  const update = useMutation(trpc.adminScreening.updateRule.mutationOptions());

  useEffect(() => {
    if (!opened) return;
    setValues(
      rule
        ? {
            kind: rule.kind,
            pattern: rule.pattern,
            category: rule.category,
            action: rule.action,
            note: rule.note,
            enabled: rule.enabled,
          }
        : BLANK,
    );
    setError(null);
    setPatternError(null);
  }, [opened, rule]);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setError(null);
    if (key === "pattern" || key === "kind") setPatternError(null);
  };

  const submit = async () => {
    if (!values.pattern.trim()) return setPatternError(MSG.screeningPatternRequired);
    if (values.note.trim().length > SCREENING_NOTE_MAX) return setError(MSG.screeningNoteTooLong);
    try {
      if (rule) await update.mutateAsync({ id: rule.id, ...values });
      else await create.mutateAsync(values);
      notifications.show({ color: "green", message: MSG.screeningRuleSaved });
      onSaved();
      onClose();
    } catch (e) {
      setError(errorMessage(e, "ルールの保存に失敗しました。"));
    }
  };

  const busy = create.isPending || update.isPending;
  return (
    <Modal opened={opened} onClose={onClose} title={rule ? "ルールの編集" : "ルールの追加"} centered size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Radio.Group
            label="種類"
            value={values.kind}
            onChange={(v) => set("kind", v as ScreeningRuleKind)}
            description={SCREENING_TEXT.ruleKindHelp[values.kind]}
          >
            <Group gap="lg" mt={4}>
              <Radio value="word" label={SCREENING_TEXT.ruleKinds.word} />
              <Radio value="pattern" label={SCREENING_TEXT.ruleKinds.pattern} />
            </Group>
          </Radio.Group>
          <TextInput
            label={values.kind === "word" ? "言葉" : "パターン（正規表現）"}
            required
            value={values.pattern}
            maxLength={SCREENING_PATTERN_MAX}
            onChange={(e) => set("pattern", e.currentTarget.value)}
            error={patternError}
            ff={values.kind === "pattern" ? "monospace" : undefined}
            description={`${values.pattern.length} / ${SCREENING_PATTERN_MAX}文字`}
            data-autofocus
          />
          <Group grow gap="sm" wrap="wrap" align="flex-start">
            <Select
              label="分類"
              required
              data={SCREENING_CATEGORIES.map((c) => ({ value: c.value, label: c.label }))}
              value={values.category}
              onChange={(v) => v && set("category", v as ScreeningCategory)}
              allowDeselect={false}
              miw={160}
            />
            <Select
              label="対応"
              required
              data={SCREENING_ACTIONS.map((a) => ({ value: a.value, label: a.label }))}
              value={values.action}
              onChange={(v) => v && set("action", v as ScreeningAction)}
              allowDeselect={false}
              miw={160}
            />
          </Group>
          <Text size="xs" c="dimmed" data-testid="action-help">
            {SCREENING_TEXT.actions[values.action]}：{SCREENING_TEXT.actionHelp[values.action]}
          </Text>
          <Textarea
            label="メモ（任意・管理者のみ）"
            rows={2}
            resize="vertical"
            value={values.note}
            onChange={(e) => set("note", e.currentTarget.value)}
            description={`${values.note.trim().length} / ${SCREENING_NOTE_MAX}文字`}
          />
          <Switch
            label="このルールを有効にする"
            checked={values.enabled}
            onChange={(e) => set("enabled", e.currentTarget.checked)}
          />
          <FormActions
            error={error}
            onCancel={onClose}
            onSubmit={() => void submit()}
            submitLabel={rule ? "保存する" : "追加する"}
            loading={busy}
          />
        </Stack>
      </form>
    </Modal>
  );
}
