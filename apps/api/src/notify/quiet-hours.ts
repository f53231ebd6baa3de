import type { QuietHours } from "@skein/contract";

const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** Whether `at` falls inside the quiet hours, read on the wall clock of their time zone. */
export function isQuiet(quiet: QuietHours | null, at: Date): boolean {
  if (!quiet) return false;
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: quiet.timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  const now = hour * 60 + minute;
  const from = minutes(quiet.from);
  const to = minutes(quiet.to);
  return from < to ? now >= from && now < to : now >= from || now < to;
}
