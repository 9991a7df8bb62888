import { MSG } from "@enmusubi/shared";
import { Button, Group, Image, Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useRef, useState } from "react";
import { confirmCost } from "../../features/messages";
import { formatPoints } from "../../lib/format";
import { emitPointsDeducted } from "../../lib/points";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { ProfilePhoto } from "./ProfilePhoto";
import { DISCOVERY_TEXT } from "./text";
import { displayName, type PublicProfile } from "./types";

/**
 * The photo in the profile detail (decision 0028): the thumbnail, and a 「写真を拡大」
 * button quoting what the enlargement costs now (members.photoPrice: the price, or 無料 for one's
 * own photo or a re-view within 24 hours). Confirm → members.viewPhoto (charged once, the balance
 * follows through points:deducted) → the full-size image at its short-lived signed URL, in a
 * modal with 写真を保存 (spec §2 "avatar enlarge and download"; Esc closes it, focus returns to the
 * button). A member without a photo that can be
 * enlarged shows the thumbnail (or the placeholder) only.
 */
export function PhotoEnlarge({ profile }: { profile: PublicProfile }) {
  const trpc = useTRPC();
  const name = displayName(profile);
  const price = useQuery({
    ...trpc.members.photoPrice.queryOptions({ id: profile.id }),
    enabled: profile.photoLink !== null,
    staleTime: 0,
  });
  const view = useMutation(trpc.members.viewPhoto.mutationOptions());
  const [shown, setShown] = useState<string | null>(null);
  // Focus goes back to the button once the photo closes (it was busy, hence unfocusable, when the photo opened).
  const button = useRef<HTMLButtonElement>(null);
  const quote = price.data;

  const enlarge = async () => {
    if (!quote || view.isPending) return;
    if (!(await confirmCost(quote.cost, "写真の拡大"))) return;
    try {
      const result = await view.mutateAsync({ id: profile.id });
      emitPointsDeducted(result.remainingPoints);
      setShown(result.url);
      // Enlarging again within 24 hours is free: the button says so.
      void price.refetch();
    } catch (error) {
      const short = error instanceof TRPCClientError && error.data?.httpStatus === 402;
      if (short) notifications.show({ color: "red", message: DISCOVERY_TEXT.notEnoughPoints });
      else notifyFailure(error, MSG.photoEnlargeFailed);
    }
  };

  return (
    <Stack gap="xs" align="center">
      <ProfilePhoto profile={profile} size={160} />
      {quote?.available && (
        <Button ref={button} size="xs" variant="light" onClick={enlarge} loading={view.isPending}>
          {MSG.photoEnlarge}（{quote.free ? "無料" : formatPoints(quote.cost)}）
        </Button>
      )}
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        onExitTransitionEnd={() => button.current?.focus()}
        returnFocus={false}
        title={`${name}さんの写真`}
        centered
        size="lg"
      >
        {shown && (
          <Stack gap="sm">
            <Image src={shown} alt={`${name}さんの写真（拡大）`} fit="contain" mah="70vh" data-graphic="photo" />
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                表示用のリンクは数分で無効になります。
              </Text>
              <Group gap="sm">
                <Button component="a" href={shown} download variant="default">
                  写真を保存
                </Button>
                <Button variant="default" onClick={() => setShown(null)}>
                  閉じる
                </Button>
              </Group>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
