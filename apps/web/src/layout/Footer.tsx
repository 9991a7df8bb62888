import { Anchor, Group, Stack, Text } from "@mantine/core";
import { Link } from "react-router-dom";

/** Footer of every shell (spec §2): the three legal pages and the copyright line. */
export function Footer() {
  return (
    <Stack component="footer" gap={6} align="center" py="lg" px="md">
      <Group gap="md" justify="center" wrap="wrap">
        <Anchor component={Link} to="/legal/terms-of-service" size="sm" c="dimmed">
          利用規約
        </Anchor>
        <Anchor component={Link} to="/legal/transaction-law" size="sm" c="dimmed">
          特定商取引法に基づく表記
        </Anchor>
        <Anchor component={Link} to="/legal/privacy-policy" size="sm" c="dimmed">
          プライバシーポリシー
        </Anchor>
      </Group>
      <Text size="xs" c="dimmed">
        © {new Date().getFullYear()} Enmusubi 縁結び All rights reserved.
      </Text>
    </Stack>
  );
}
