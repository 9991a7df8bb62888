import { Alert, Anchor, Stack, Title } from "@mantine/core";
import { Link } from "react-router-dom";
import { WithdrawSection } from "./settings/WithdrawSection";

/** Spec §2: the profile-settings section is a stub telling the member to edit from the dashboard. */
export function ProfileSettingsStub() {
  return (
    <Stack gap="md">
      <Title order={2}>プロフィール設定</Title>
      <Alert color="blue" variant="light">
        プロフィールの編集は
        <Anchor component={Link} to="/user/dashboard">
          ダッシュボード
        </Anchor>
        の「プロフィールを編集」から行ってください。
      </Alert>
      {/* Issue 25: mounted here until the settings screen (ProfileSettings.tsx) replaces this stub. */}
      <WithdrawSection />
    </Stack>
  );
}
