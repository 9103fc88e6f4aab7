import type { TReminders } from "@/server/db/schema";

const DAY_MS = 24 * 60 * 60 * 1000;

/** When an invited recipient gets their first automatic reminder, or null when the package has none. */
export function firstReminderAt(reminders: TReminders | null, invitedAt: Date): Date | null {
  if (!reminders || reminders.max <= 0) return null;
  return new Date(invitedAt.getTime() + reminders.firstAfterDays * DAY_MS);
}
