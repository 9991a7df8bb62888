import { Badge } from "@mantine/core";
import { useEffect, useState } from "react";

const timeFormat = new Intl.DateTimeFormat("ja-JP", { hour: "2-digit", minute: "2-digit" });

/** 「残り29分」 (under a minute: 「残り1分未満」). */
export function remainingLabel(ms: number): string {
  if (ms <= 0) return "終了";
  const minutes = Math.floor(ms / 60_000);
  return minutes < 1 ? "残り1分未満" : `残り${minutes}分`;
}

/**
 * How long the paid board window stays open (「閲覧可能 残り29分（17:35まで）」), refreshed every
 * 15 seconds; `onEnded` runs once when it closes, so the screen asks again.
 */
export function WindowTimer({ until, onEnded }: { until: Date | string; onEnded: () => void }) {
  const end = new Date(until).getTime();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const left = end - Date.now();
    if (left <= 0) {
      onEnded();
      return;
    }
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    const done = setTimeout(onEnded, left);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [end, onEnded]);
  return (
    <Badge size="lg" variant="light" color="teal" tt="none" fw={500} data-testid="board-window">
      閲覧可能 {remainingLabel(end - now)}（{timeFormat.format(end)}まで）
    </Badge>
  );
}
