import { useEffect, useState } from "react";
import { useIdle } from "../lib/idle";

/**
 * The operator's support address (OPERATOR_EMAIL, answered by `legal.info`; decision 0010) for the
 * /login screen, whose entry carries neither tRPC nor TanStack Query. Read once the browser is
 * first idle, with a plain GET of the procedure (tRPC's HTTP form, the answer in superjson's
 * `json`): importing the API client for it would load the client and its schemas on every visit of
 * the sign-in page (64 KB of gzip JavaScript, most of /login's blocking time in `pnpm bench:web`).
 * Null until the answer comes, and when it fails or has no address.
 */
export function useSupportAddress(): string | null {
  const idle = useIdle();
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    if (!idle) return;
    let live = true;
    fetch("/trpc/legal.info", { headers: { accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { result?: { data?: { json?: { operator?: { email?: unknown } } } } } | null) => {
        const email = body?.result?.data?.json?.operator?.email;
        if (live && typeof email === "string" && email.includes("@")) setAddress(email);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [idle]);
  return address;
}
