import { MSG } from "@enmusubi/shared";
import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { captureFrame, ImageError } from "./image";

/**
 * Takes one photo with the device camera (spec §2 "add test user with camera capture", admin
 * profile). The stream stops when the dialog closes.
 */
export function CameraCapture({
  opened,
  onClose,
  onCapture,
}: {
  opened: boolean;
  onClose(): void;
  onCapture(dataUrl: string): void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!opened) return;
    let stream: MediaStream | null = null;
    let cancelled = false;
    setError(null);
    setReady(false);
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error("no camera API");
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" }, audio: false });
        if (cancelled) return;
        if (video.current) {
          video.current.srcObject = stream;
          await video.current.play().catch(() => undefined);
        }
      } catch {
        if (!cancelled) setError(MSG.cameraAccessFailed);
      }
    })();
    return () => {
      cancelled = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [opened]);

  const capture = () => {
    if (!video.current) return;
    try {
      onCapture(captureFrame(video.current));
      onClose();
    } catch (e) {
      setError(e instanceof ImageError ? e.message : MSG.photoProcessingFailed);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="カメラで撮影" centered size="lg">
      <Stack>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {!error && (
          <video
            ref={video}
            playsInline
            muted
            onLoadedMetadata={() => setReady(true)}
            style={{ width: "100%", maxHeight: 360, background: "#000", borderRadius: 8 }}
            aria-label="カメラのプレビュー"
            data-graphic="photo"
          />
        )}
        {!error && !ready && (
          <Text size="sm" c="dimmed">
            {MSG.cameraStarting}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button onClick={capture} disabled={!ready || !!error}>
            撮影する
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
