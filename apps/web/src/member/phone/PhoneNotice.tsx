import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { useTRPC } from "../../lib/trpc";
import { PHONE_TEXT } from "./text";

/**
 * The dashboard's reminder while the member's phone is not verified (decision 0048): what verifying
 * unlocks (the sign-up bonus if due, the daily login bonus) and the way to the screen. Nothing once
 * verified, nor while the state is loading.
 */
export function PhoneNotice() {
  const trpc = useTRPC();
  const status = useQuery(trpc.phone.status.queryOptions());
  const data = status.data;
  if (!data || data.verified) return null;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="phone-notice-title" data-testid="phone-notice">
      <Stack gap="xs">
        <Title order={3} size="h5" id="phone-notice-title">
          {PHONE_TEXT.dashboardTitle}
        </Title>
        <Text size="sm">
          {PHONE_TEXT.dashboardBody(data.signupBonus.pending ? data.signupBonus.points : null, data.loginBonusPoints)}
        </Text>
        <Group justify="flex-end">
          <Button component={Link} to="/user/phone-verification" variant="light">
            {PHONE_TEXT.dashboardAction}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
