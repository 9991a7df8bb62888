import { useEffect, useState } from "react";
import { useIdle } from "../lib/idle";

/**
 * The operator's support address (OPERATOR_EMAIL, answered by `legal.info`; decision 0010) for the
 * /login screen, whose entry carries neither tRPC nor TanStack Query: the API client is imported
 * once the browser is first idle, as the sign-in does on submit. Null until the answer comes, and
 * when it fails.
 */
export function useSupportAddress(): string | null {
  const idle = useIdle();
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    if (!idle) return;
    let live = true;
    import("../lib/api-providers")
      .then(({ trpcClient }) => trpcClient.legal.info.query())
      .then((info) => {
        if (live) setAddress(info.operator.email);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [idle]);
  return address;
}
