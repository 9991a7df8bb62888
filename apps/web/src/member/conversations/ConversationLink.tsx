import { Button } from "@mantine/core";
import { Link } from "react-router-dom";
import { type PartyLike, partyName } from "../../features/messages";

/** 「やりとりを見る」: from a message on the mail screens to the whole conversation with that person (issue 24). */
export function ConversationLink({ party }: { party: PartyLike }) {
  return (
    <Button
      component={Link}
      to={`/user/messages/${party.id}`}
      size="xs"
      variant="subtle"
      aria-label={`${partyName(party)}さんとのやりとりを見る`}
      data-testid="conversation-link"
    >
      やりとりを見る
    </Button>
  );
}
