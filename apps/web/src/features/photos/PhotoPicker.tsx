import { MSG } from "@enmusubi/shared";
import { Alert, Avatar, Button, FileButton, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { CameraCapture } from "./CameraCapture";
import { fileToJpeg, ImageError } from "./image";

/**
 * Choose a photo from a file or the camera, shown as a preview. It only reports the choice
 * (a downscaled JPEG data URL, or null for "remove"); the form decides when to upload, so a
 * choice is staged until the form is saved (spec §4 "Profile photo edit").
 */
export function PhotoPicker({
  current,
  onChange,
  camera = false,
  removable = true,
  label = "写真",
}: {
  /** What to preview: a stored link or a staged data URL; null shows the placeholder. */
  current: string | null;
  onChange(dataUrl: string | null): void;
  camera?: boolean;
  removable?: boolean;
  label?: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cameraOpen, setCameraOpen] = useState(false);

  const pick = async (file: File | null) => {
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      onChange(await fileToJpeg(file));
    } catch (e) {
      setError(e instanceof ImageError ? e.message : MSG.fileReadFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="md" wrap="nowrap" align="center">
        <Avatar
          src={current}
          size={72}
          radius="md"
          alt={current ? "写真のプレビュー" : ""}
          color="pink"
          data-graphic="photo"
        >
          写真
        </Avatar>
        <Group gap="xs">
          <FileButton onChange={pick} accept="image/*">
            {(props) => (
              <Button {...props} variant="light" size="xs" loading={busy}>
                ファイルを選択
              </Button>
            )}
          </FileButton>
          {camera && (
            <Button variant="light" size="xs" onClick={() => setCameraOpen(true)}>
              カメラで撮影
            </Button>
          )}
          {removable && current && (
            <Button variant="subtle" color="red" size="xs" onClick={() => onChange(null)}>
              写真を削除
            </Button>
          )}
        </Group>
      </Group>
      {error && (
        <Alert color="red" p="xs" role="alert">
          {error}
        </Alert>
      )}
      {camera && <CameraCapture opened={cameraOpen} onClose={() => setCameraOpen(false)} onCapture={onChange} />}
    </Stack>
  );
}
