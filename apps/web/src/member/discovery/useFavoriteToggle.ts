import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { DISCOVERY_TEXT } from "./text";

/** Adds or removes a favourite (both idempotent on the server) and refreshes search and favourites. */
export function useFavoriteToggle() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const add = useMutation(trpc.members.addFavorite.mutationOptions());
  const remove = useMutation(trpc.members.removeFavorite.mutationOptions());
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.members.search.pathFilter());
    void queryClient.invalidateQueries(trpc.members.favorites.pathFilter());
  };
  return {
    busy: add.isPending || remove.isPending,
    async set(id: string, favorite: boolean): Promise<boolean> {
      try {
        if (favorite) await add.mutateAsync({ id });
        else await remove.mutateAsync({ id });
        notifications.show({
          color: "green",
          message: favorite ? DISCOVERY_TEXT.favoriteAdded : DISCOVERY_TEXT.favoriteRemoved,
        });
        return true;
      } catch (error) {
        // Removal is idempotent: its only failure is the spec's own message (spec §8). Adding may
        // be refused for a reason the server words in Japanese (oneself, an administrator …).
        if (favorite) notifyFailure(error, DISCOVERY_TEXT.favoriteAddFailed);
        else notifications.show({ color: "red", message: DISCOVERY_TEXT.favoriteRemoveFailed });
        return false;
      } finally {
        refresh();
      }
    },
  };
}
