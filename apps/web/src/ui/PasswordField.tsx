import { PasswordInput, type PasswordInputProps } from "@mantine/core";
import { useId } from "react";

/**
 * Mantine's PasswordInput, with its error and description tied to the field the way every other
 * Mantine input does it (aria-invalid, aria-describedby); Mantine 9 leaves them off its inner
 * input. The error is announced (role="alert", as the theme gives every field error).
 */
export function PasswordField({ error, description, errorProps, descriptionProps, ...props }: PasswordInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const hasMessage = error !== undefined && error !== null && typeof error !== "boolean";
  const describedBy = [hasMessage ? errorId : null, description ? descriptionId : null].filter(Boolean).join(" ");
  return (
    <PasswordInput
      {...props}
      error={error}
      description={description}
      errorProps={{ role: "alert", ...errorProps, id: errorId }}
      descriptionProps={{ ...descriptionProps, id: descriptionId }}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy || undefined}
    />
  );
}
