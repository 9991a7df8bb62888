import { Anchor, Stack, Text, Title } from "@mantine/core";
import type { ComponentType } from "react";
import { Link } from "react-router-dom";
import { EmailSection } from "./EmailSection";
import { NoticeSection } from "./NoticeSection";
import { PasswordSection } from "./PasswordSection";
import { WithdrawSection } from "./WithdrawSection";

/**
 * プロフィール設定 (/user/profile-settings, decision 0033): a list of independent sections, each its own
 * card and form. A new section (e.g. 退会) is one component in this folder and one line below.
 */
const SECTIONS: Array<{ key: string; component: ComponentType }> = [
  { key: "notice", component: NoticeSection },
  { key: "password", component: PasswordSection },
  { key: "email", component: EmailSection },
  { key: "withdraw", component: WithdrawSection },
];

export function ProfileSettings() {
  return (
    <Stack gap="md">
      <Title order={2}>プロフィール設定</Title>
      <Text size="sm">
        ニックネームや写真などのプロフィールは
        <Anchor component={Link} to="/user/dashboard">
          ダッシュボード
        </Anchor>
        の「プロフィールを編集」から変更できます。
      </Text>
      {SECTIONS.map(({ key, component: Section }) => (
        <Section key={key} />
      ))}
    </Stack>
  );
}
