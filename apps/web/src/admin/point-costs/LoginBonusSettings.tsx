import { LOGIN_BONUS_MAX_POINTS, MSG } from "@enmusubi/shared";
import { Button, Card, Group, NumberInput, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { LOGIN_BONUS_TEXT } from "../users/text";

/** The daily login bonus for phone-verified members (decision 0048): points, 0 = off; audited. */
export function LoginBonusSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.adminPhone.bonusSettings.queryOptions());
  const [value, setValue] = useState<number | string>("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (settings.data) setValue(settings.data.loginBonusPoints);
  }, [settings.data]);
  const save = useMutation(
    trpc.adminPhone.saveBonusSettings.mutationOptions({
      onSuccess: (result) => {
        setError(null);
        notifications.show({ color: "green", message: result.message });
        queryClient.setQueryData(trpc.adminPhone.bonusSettings.queryKey(), {
          loginBonusPoints: result.loginBonusPoints,
        });
      },
      onError: (e) => setError(errorMessage(e, MSG.genericError)),
    }),
  );
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const points = typeof value === "number" ? value : Number.NaN;
    if (!Number.isInteger(points) || points < 0 || points > LOGIN_BONUS_MAX_POINTS) {
      setError(MSG.loginBonusRange);
      return;
    }
    save.mutate({ loginBonusPoints: points });
  };
  return (
    <Card withBorder padding="md" component="form" onSubmit={submit} aria-labelledby="login-bonus-title">
      <Stack gap="xs">
        <Title order={3} size="h5" id="login-bonus-title">
          {LOGIN_BONUS_TEXT.title}
        </Title>
        <Text size="sm" c="dimmed">
          {LOGIN_BONUS_TEXT.description}
        </Text>
        <Group align="flex-end" gap="sm">
          <NumberInput
            label={LOGIN_BONUS_TEXT.label}
            min={0}
            max={LOGIN_BONUS_MAX_POINTS}
            allowDecimal={false}
            allowNegative={false}
            value={value}
            onChange={setValue}
            error={error}
            w={220}
            disabled={!settings.data}
          />
          <Button type="submit" loading={save.isPending} disabled={!settings.data}>
            {LOGIN_BONUS_TEXT.save}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
