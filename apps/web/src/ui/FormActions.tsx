import { Alert, Button, Group } from "@mantine/core";

/** The foot of every dialog form: the form's error (if any), then cancel and the main action. */
export function FormActions({
  error,
  onCancel,
  onSubmit,
  submitLabel,
  loading = false,
  disabled = false,
}: {
  error?: string | null | undefined;
  onCancel(): void;
  onSubmit(): void;
  submitLabel: string;
  loading?: boolean;
  disabled?: boolean;
}) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          キャンセル
        </Button>
        <Button onClick={onSubmit} loading={loading} disabled={disabled}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
