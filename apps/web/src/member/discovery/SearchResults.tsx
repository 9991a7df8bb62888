import { SimpleGrid, Stack } from "@mantine/core";
import type { RouterOutputs } from "../../lib/api-types";
import { ProfileResult, type ResultActions, type SearchView } from "./ProfileResult";

type SearchProfile = RouterOutputs["members"]["search"]["profiles"][number];

/** The results in the chosen view: a list (one a row) or a grid of cards (2–4 or 1–2 columns). */
export function SearchResults({
  view,
  profiles,
  actions,
  pendingId,
}: {
  view: SearchView;
  profiles: readonly SearchProfile[];
  actions: Omit<ResultActions, "viewing">;
  pendingId: string | null | undefined;
}) {
  return view === "list" ? (
    <Stack gap={0} data-testid="search-results">
      {profiles.map((p) => (
        <ProfileResult
          key={p.id}
          profile={p}
          isFavorite={p.isFavorite}
          view={view}
          actions={{ ...actions, viewing: pendingId === p.id }}
        />
      ))}
    </Stack>
  ) : (
    <SimpleGrid
      cols={view === "grid" ? { base: 2, sm: 3, md: 4 } : { base: 1, sm: 2 }}
      spacing="sm"
      data-testid="search-results"
    >
      {profiles.map((p) => (
        <ProfileResult
          key={p.id}
          profile={p}
          isFavorite={p.isFavorite}
          view={view}
          actions={{ ...actions, viewing: pendingId === p.id }}
        />
      ))}
    </SimpleGrid>
  );
}
