import {
  adminUserCreateInput,
  ageCheckInput,
  ID_DOCUMENT_KINDS,
  ID_DOCUMENT_LABELS,
  type IdDocumentKind,
  MSG,
  NEW_USER_DEFAULTS,
} from "@enmusubi/shared";
import { Alert, Button, Code, Fieldset, Group, Modal, Radio, Select, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { PhotoPicker } from "../../features/photos/PhotoPicker";
import { formatPoints } from "../../lib/format";
import { type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPC, useTRPCClient } from "../../lib/trpc";
import { IdBirthdayInput } from "../IdBirthdayInput";

interface Draft {
  name: string;
  email: string;
  gender: "male" | "female";
  photo: string | null;
  /** How the age was checked (decision 0043): the ID's kind and the birth date read from it. */
  documentKind: IdDocumentKind | null;
  birthday: string;
}
const EMPTY: Draft = { name: "", email: "", gender: "male", photo: null, documentKind: null, birthday: "" };
const DOCUMENT_OPTIONS = ID_DOCUMENT_KINDS.map((kind) => ({ value: kind, label: ID_DOCUMENT_LABELS[kind] }));

/**
 * Add user (spec §2, §3 "New-user draft", §5): name, email, gender (male by default) and a photo
 * from a file or the camera. The userID and password come from uniqueGenerate; points 100,
 * sendPoints 20, role user. The credentials are shown once the account exists. The administrator
 * vouches for the holder's age: the screen asks which ID was checked and the birth date on it,
 * which becomes the member's (under 18 is refused; decision 0043).
 */
export function AddUserModal({ opened, onClose, onCreated }: { opened: boolean; onClose(): void; onCreated(): void }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<{ userID: string; password: string } | null>(null);
  const credentials = useQuery({
    ...trpc.auth.uniqueGenerate.queryOptions(),
    enabled: opened,
    gcTime: 0,
    staleTime: 0,
  });

  useEffect(() => {
    if (opened) {
      setDraft(EMPTY);
      setErrors({});
      setCreated(null);
    }
  }, [opened]);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => ({
      ...e,
      ...Object.fromEntries(Object.keys(patch).map((k) => [k, undefined])),
      _form: undefined,
    }));
  };

  const create = useMutation({
    mutationFn: async (input: Draft & { userID: string; password: string }) => {
      const photoLink = input.photo ? (await client.photos.adminUpload.mutate({ data: input.photo })).photoLink : null;
      return client.adminUsers.create.mutate({
        userID: input.userID,
        password: input.password,
        name: input.name,
        email: input.email,
        gender: input.gender,
        photoLink,
        points: NEW_USER_DEFAULTS.points,
        sendPoints: NEW_USER_DEFAULTS.sendPoints,
        role: NEW_USER_DEFAULTS.role,
        ageCheck: { documentKind: input.documentKind as IdDocumentKind, birthday: input.birthday },
      });
    },
    onSuccess: (user, input) => {
      setCreated({ userID: user.userID, password: input.password });
      notifications.show({ color: "green", message: MSG.userCreated });
      onCreated();
    },
    onError: (error) => setErrors({ _form: errorMessage(error, MSG.userCreateFailed) }),
  });

  const submit = () => {
    if (!credentials.data) return;
    const values = { ...credentials.data, name: draft.name, email: draft.email, gender: draft.gender };
    const result = validate(adminUserCreateInput, values);
    const check = validate(ageCheckInput, { documentKind: draft.documentKind, birthday: draft.birthday });
    if (!result.ok || !check.ok) {
      const problems = { ...(result.ok ? {} : result.errors), ...(check.ok ? {} : check.errors) };
      if (!draft.birthday) problems.birthday = MSG.idBirthdayRequired;
      return setErrors(problems);
    }
    setErrors({});
    create.mutate({ ...draft, ...credentials.data });
  };

  return (
    <Modal opened={opened} onClose={onClose} title="ユーザーを追加" centered size="lg">
      {created ? (
        <Stack>
          <Alert color="green" title={MSG.userCreated}>
            以下のログイン情報を本人にお伝えください。パスワードはこの画面でのみ表示されます。
          </Alert>
          <Text>
            ユーザーID: <Code data-testid="created-userid">{created.userID}</Code>
          </Text>
          <Text>
            パスワード: <Code data-testid="created-password">{created.password}</Code>
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>閉じる</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Group gap="lg">
            <Text size="sm">
              ユーザーID: <Code>{credentials.data?.userID ?? "生成中..."}</Code>
            </Text>
            <Text size="sm">
              パスワード: <Code>{credentials.data?.password ?? "生成中..."}</Code>
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={() => void credentials.refetch()}>
              再生成
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            初期ポイント {formatPoints(NEW_USER_DEFAULTS.points)}・送信ポイント{" "}
            {formatPoints(NEW_USER_DEFAULTS.sendPoints)}
            の一般会員として登録します。
          </Text>
          <TextInput
            label="名前"
            required
            value={draft.name}
            onChange={(e) => update({ name: e.currentTarget.value })}
            error={errors.name}
          />
          <TextInput
            label="メールアドレス"
            required
            type="email"
            value={draft.email}
            onChange={(e) => update({ email: e.currentTarget.value })}
            error={errors.email}
          />
          <Radio.Group
            label="性別"
            value={draft.gender}
            onChange={(v) => update({ gender: v === "female" ? "female" : "male" })}
          >
            <Group mt={4}>
              <Radio value="male" label="男性" />
              <Radio value="female" label="女性" />
            </Group>
          </Radio.Group>
          <Fieldset legend="年齢確認（身分証）" variant="filled">
            <Stack gap="sm">
              <Text size="xs" c="dimmed">
                登録する方の身分証で18歳以上であることを確認し、確認した身分証の種類と生年月日を入力してください。入力した生年月日が会員の生年月日になります。
              </Text>
              <Select
                label="確認した身分証"
                required
                placeholder="選択してください"
                data={DOCUMENT_OPTIONS}
                value={draft.documentKind}
                onChange={(v) => update({ documentKind: (v as IdDocumentKind | null) ?? null })}
                error={errors.documentKind}
                allowDeselect={false}
              />
              <IdBirthdayInput
                value={draft.birthday}
                onChange={(birthday) => update({ birthday })}
                error={errors.birthday}
              />
            </Stack>
          </Fieldset>
          <PhotoPicker current={draft.photo} onChange={(photo) => update({ photo })} camera />
          {(errors._form || errors.userID || errors.password) && (
            <Alert color="red" role="alert">
              {errors._form ?? errors.userID ?? errors.password}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button onClick={submit} loading={create.isPending} disabled={!credentials.data}>
              登録する
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
