import type { BackgroundJob } from "../background-job";
import type { ApiDeps } from "../deps";
import { sendDueNotices } from "./job";

/** How often each instance looks for due notices (a notice is at most this late after its window). */
export const NOTICE_POLL_MS = 20_000;
const NOTICE_BATCH = 200;

/** Every due notice now, batch after batch; wakes the mail job when any was queued. */
export async function sendAllDueNotices(deps: ApiDeps, now?: Date): Promise<{ claimed: number; mailed: number }> {
  const total = { claimed: 0, mailed: 0 };
  for (;;) {
    const run = await sendDueNotices(deps, { batch: NOTICE_BATCH, ...(now ? { now } : {}) });
    total.claimed += run.claimed;
    total.mailed += run.mailed;
    if (run.claimed < NOTICE_BATCH) break;
  }
  if (total.mailed > 0) deps.onMailQueued();
  return total;
}

export const noticeJobs: BackgroundJob[] = [
  {
    // New-message notices (decision 0033), on every instance; SKIP LOCKED keeps each notice single.
    name: "message-notices",
    everyMs: NOTICE_POLL_MS,
    async run(deps, log) {
      const run = await sendAllDueNotices(deps);
      if (run.mailed > 0) log.info(run, "queued new-message notices");
    },
  },
];
