import { Box, Center, Text } from "@mantine/core";
import { displayName } from "./types";

/**
 * A member's photo, lazy-loaded at the size it is shown, alt = the member's name; without a photo
 * a placeholder with the name's first letter.
 */
export function ProfilePhoto({
  profile,
  size,
  radius = 8,
}: {
  profile: { name: string | null; photoLink: string | null };
  /** Square side in px, or "100%" for a square filling its box. */
  size: number | "100%";
  radius?: number;
}) {
  const name = displayName(profile);
  const box =
    size === "100%"
      ? { w: "100%", style: { aspectRatio: "1 / 1", borderRadius: radius } }
      : { w: size, h: size, style: { borderRadius: radius } };
  if (profile.photoLink)
    return (
      <Box {...box} style={{ ...box.style, overflow: "hidden", flexShrink: 0 }} bg="gray.1" data-graphic="photo">
        <img
          src={profile.photoLink}
          alt={name}
          loading="lazy"
          decoding="async"
          width={size === "100%" ? 320 : size}
          height={size === "100%" ? 320 : size}
          style={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }}
        />
      </Box>
    );
  return (
    <Center {...box} style={{ ...box.style, flexShrink: 0 }} bg="pink.0" role="img" aria-label={`${name}（写真なし）`}>
      <Text fw={700} c="pink.8" size={typeof size === "number" && size < 64 ? "md" : "xl"} aria-hidden>
        {name.slice(0, 1)}
      </Text>
    </Center>
  );
}
