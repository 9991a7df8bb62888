/** The optional schedule of a compose dialog (spec §4 Scheduled message). */
export interface Schedule {
  enabled: boolean;
  /** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input gives it. */
  at: string;
}

export const NO_SCHEDULE: Schedule = { enabled: false, at: "" };

/** The chosen time, or null when unset or not a time. */
export function scheduleTime(schedule: Schedule): Date | null {
  if (!schedule.enabled || !schedule.at) return null;
  const date = new Date(schedule.at);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Spec §4: a schedule applies only when ticked and in the future; otherwise the message goes at once. */
export function scheduleApplies(schedule: Schedule, now: Date = new Date()): boolean {
  const at = scheduleTime(schedule);
  return at !== null && at.getTime() > now.getTime();
}

/** A datetime-local value for `date` in local time. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
