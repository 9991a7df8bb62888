import { Button } from "@mantine/core";
import { Link } from "react-router-dom";
import { displayName } from "../../lib/display-name";

/**
 * The way into the whole conversation with a person (decision 0030): 「やりとりを見る」 from a message on
 * the mail screens, or, with `write`, 「メッセージを送る」 from someone's board post.
 */
export function ConversationLink({
  party,
  write = false,
}: {
  party: { id: string; name: string | null };
  write?: boolean;
}) {
  const name = displayName(party);
  return (
    <Button
      component={Link}
      to={`/user/messages/${party.id}`}
      size="xs"
      variant={write ? "light" : "subtle"}
      aria-label={write ? `${name}さんにメッセージを送る` : `${name}さんとのやりとりを見る`}
      data-testid={write ? undefined : "conversation-link"}
    >
      {write ? "メッセージを送る" : "やりとりを見る"}
    </Button>
  );
}
