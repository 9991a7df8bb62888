import { idBirthday, MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { IdBirthdayInput } from "../IdBirthdayInput";
import type { Entry } from "./VerificationEntry";

/**
 * 年齢確認の承認 (decision 0043): the administrator enters the birth date read from the ID,
 * prefilled with the registered one when there is one; it becomes the member's. No birth date, or
 * one under 18, is refused here with the catalogue's message (and again by the server).
 */
export function ApproveDialog({
  entry,
  pending,
  serverError,
  onClose,
  onApprove,
}: {
  entry: Entry | null;
  pending: boolean;
  serverError: string | null;
  onClose(): void;
  onApprove(birthday: string): void;
}) {
  const [birthday, setBirthday] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setBirthday(entry?.user.birthday ?? "");
    setError(null);
  }, [entry]);

  const submit = () => {
    if (!birthday) return setError(MSG.idBirthdayRequired);
    const checked = idBirthday.safeParse(birthday);
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? MSG.idBirthdayInvalid);
    onApprove(checked.data);
  };

  const name = entry ? (entry.user.name ?? entry.user.userID) : "";
  return (
    <Modal opened={entry !== null} onClose={onClose} title="年齢確認の承認" centered>
      <Stack gap="sm">
        <Text size="sm">
          {name}（{entry?.user.userID}
          ）さんの年齢確認を承認します。身分証の生年月日を確認して入力してください。入力した生年月日が会員の生年月日になります。身分証の画像は承認と同時に削除されます。
        </Text>
        <IdBirthdayInput
          value={birthday}
          onChange={(value) => {
            setBirthday(value);
            setError(null);
          }}
          error={error ?? serverError ?? undefined}
          description={
            entry?.user.birthday
              ? "登録の生年月日を入れてあります。身分証と違う場合は身分証の生年月日に直してください。"
              : "登録の生年月日はありません。身分証の生年月日を入力してください。"
          }
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button onClick={submit} loading={pending}>
            承認する
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
