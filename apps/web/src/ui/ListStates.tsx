import { Alert, Button, Card, Group, Loader, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { isVerificationRefusal, VerificationRefusal } from "./refusal";

/**
 * Loading, error (with retry) and empty states every list has; the content otherwise. A refusal
 * because the member is not verified (`error`'s reason) shows the verification notice with its
 * link instead of the error and a retry that would be refused again (decision 0032).
 */
export function ListStates({
  isLoading,
  isError,
  error,
  errorText,
  onRetry,
  isEmpty,
  emptyText,
  children,
}: {
  isLoading: boolean;
  isError: boolean;
  /** The failure itself, to tell a refusal for want of verification from others. */
  error?: unknown;
  errorText: string;
  onRetry: () => void;
  isEmpty: boolean;
  emptyText: ReactNode;
  children: ReactNode;
}) {
  if (isLoading)
    return (
      <Group gap="sm" role="status" py="md">
        <Loader size="sm" aria-hidden />
        <Text>読み込み中...</Text>
      </Group>
    );
  if (isError && isVerificationRefusal(error)) return <VerificationRefusal />;
  if (isError)
    return (
      <Alert color="red" title={errorText} role="alert">
        <Button size="xs" variant="white" color="red" mt="xs" onClick={onRetry}>
          再試行
        </Button>
      </Alert>
    );
  if (isEmpty)
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed" ta="center">
          {emptyText}
        </Text>
      </Card>
    );
  return <>{children}</>;
}
