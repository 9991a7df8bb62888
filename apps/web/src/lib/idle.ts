import { useEffect, useState } from "react";

/**
 * False until the browser is first idle after mount (at most `timeoutMs` later), then true: work
 * that nothing on the first screen waits for (a live subscription, lists only a dialog reads) is
 * started then instead of competing with the first render.
 */
export function useIdle(timeoutMs = 2000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: timeoutMs });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = window.setTimeout(() => setIdle(true), 0);
    return () => window.clearTimeout(handle);
  }, [timeoutMs]);
  return idle;
}
