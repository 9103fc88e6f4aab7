import type { TEventData, TEventName } from "./event-catalogue";

/**
 * Realistic samples for "Send test event": every field the real event carries, with plausible values, so a
 * receiver can exercise its real handler. Ids are marked `_test_` so nobody mistakes them for real packages.
 */
export function sampleEventData(event: TEventName, at: Date, actorEmail: string): TEventData<TEventName> {
  const pkg = { packageId: "pkg_test_7Hq2Lm9x", packageTitle: "Lease renewal — 14 Harbour Street", metadata: { contractNumber: "C-2041", region: "North" } };
  const session = {
    packageId: pkg.packageId,
    sessionId: "ses_test_3Kf8Wd1p",
    recipientName: "Jordan Lee",
    recipientEmail: "jordan.lee@example.com",
    metadata: pkg.metadata,
  };
  const iso = at.toISOString();
  const inAWeek = new Date(at.getTime() + 7 * 86_400_000).toISOString();
  const samples: { [E in TEventName]: TEventData<E> } = {
    PACKAGE_SENT: { ...pkg, signerCount: 2, sessionsSent: 1 },
    PACKAGE_COMPLETED: { ...pkg, completedAt: iso },
    PACKAGE_DECLINED: { ...pkg, reason: "The rent figure on page 2 is wrong." },
    PACKAGE_VOIDED: { ...pkg, voidedBy: actorEmail },
    PACKAGE_EXPIRED: pkg,
    PACKAGE_ON_HOLD: { ...pkg, heldBy: actorEmail },
    PACKAGE_RESUMED: { ...pkg, resumedBy: actorEmail, expiresAt: inAWeek },
    PACKAGE_SCHEDULED: { ...pkg, scheduledAt: inAWeek },
    PACKAGE_DELETED: { ...pkg, deletedBy: actorEmail },
    SESSION_SENT: { ...session, packageTitle: pkg.packageTitle },
    SESSION_OPENED: session,
    SESSION_COMPLETED: { ...session, packageTitle: pkg.packageTitle },
    SESSION_DECLINED: { ...session, packageTitle: pkg.packageTitle, reason: "I am not the right signatory." },
    SESSION_REMINDED: { ...session, packageTitle: pkg.packageTitle, trigger: "manual" },
    SESSION_CANCELLED: { ...session, packageTitle: pkg.packageTitle },
  };
  return samples[event];
}
