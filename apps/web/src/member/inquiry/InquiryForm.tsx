import { BANNER_MS, INQUIRY_MESSAGE_MAX, INQUIRY_TITLE_MAX, inquiryCreateInput, MSG } from "@enmusubi/shared";
import { Anchor, Button, Card, List, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";

const HINTS = [
  "ご質問やご要望は、できるだけ具体的にご記入ください。",
  `タイトルは${INQUIRY_TITLE_MAX}文字以内、メッセージは${INQUIRY_MESSAGE_MAX}文字以内でご入力ください。`,
  "受付時間は平日9:00〜18:00です。時間外のお問い合わせは翌営業日以降に順次回答いたします。",
  "パスワードなどの秘密の情報は記載しないでください。",
  "運営からの返信は「お問い合わせ履歴」でご確認いただけます。返信があるとメールでもお知らせします。",
];

/**
 * お問い合わせ (spec §2 inquiry form, §5): title, message and the hints. The status line is red
 * when it carries an エラー message and green on success; a success clears itself after 3 s.
 */
export function InquiryForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [message, setMessage] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (text: string) => {
    clearTimeout(timer.current);
    setStatus(text);
    if (!text.includes("エラー")) timer.current = setTimeout(() => setStatus(""), BANNER_MS);
  };

  const create = useMutation(
    trpc.inquiries.create.mutationOptions({
      onSuccess: () => {
        setTitle("");
        setMessage("");
        show(MSG.inquirySent);
        void queryClient.invalidateQueries({ queryKey: trpc.inquiries.list.pathKey() });
      },
      onError: (e) => {
        const text = errorMessage(e, MSG.inquirySendFailed);
        show(text.includes("エラー") ? text : MSG.inquirySendFailed);
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(inquiryCreateInput, { title, message });
    if (!result.ok) {
      setErrors(result.errors);
      show(result.errors.title ?? result.errors.message ?? MSG.inquirySendFailed);
      return;
    }
    setErrors({});
    create.mutate(result.data);
  };

  const isError = status.includes("エラー");
  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>お問い合わせ</Title>
      <Card withBorder padding="md">
        <Text fw={600} mb="xs" id="inquiry-hints">
          ご利用にあたって
        </Text>
        <List size="sm" spacing={4} aria-labelledby="inquiry-hints">
          {HINTS.map((hint) => (
            <List.Item key={hint}>{hint}</List.Item>
          ))}
        </List>
      </Card>
      <Card withBorder padding="md" component="form" onSubmit={submit} noValidate aria-label="お問い合わせフォーム">
        <Stack gap="sm">
          <TextInput
            label="タイトル"
            required
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={errors.title}
            description={`${title.trim().length} / ${INQUIRY_TITLE_MAX}文字`}
          />
          <Textarea
            label="メッセージ"
            required
            rows={8}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            error={errors.message}
            description={`${message.trim().length} / ${INQUIRY_MESSAGE_MAX}文字`}
          />
          <Text
            role={isError ? "alert" : "status"}
            aria-live={isError ? "assertive" : "polite"}
            c={isError ? "red" : "green"}
            fw={600}
            size="sm"
            data-testid="inquiry-status"
            mih={20}
          >
            {status}
          </Text>
          <Button type="submit" loading={create.isPending} style={{ alignSelf: "flex-start" }}>
            送信する
          </Button>
          <Text size="sm">
            送信したお問い合わせと運営からの返信は
            <Anchor component={Link} to="/user/inquiry-history">
              お問い合わせ履歴
            </Anchor>
            でご確認いただけます。
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
