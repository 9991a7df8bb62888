import { BANNER_MS } from "@enmusubi/shared/constants";
import { useCallback, useEffect, useRef, useState } from "react";

export interface Banner {
  kind: "success" | "error";
  text: string;
}

/** A status line that clears itself after 3 s (spec §9 "status and success banners 3000 ms"). */
export function useBanner(): [Banner | null, (banner: Banner) => void] {
  const [banner, setBanner] = useState<Banner | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback((next: Banner) => {
    clearTimeout(timer.current);
    setBanner(next);
    timer.current = setTimeout(() => setBanner(null), BANNER_MS);
  }, []);
  return [banner, show];
}
