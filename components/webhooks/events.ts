import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";

/** The fifteen events as the app explains them (the names and payloads are in docs/webhooks.md). */
export const EVENT_INFO: { name: TEventName; group: "Package" | "Recipient session"; description: string }[] = [
  { name: "PACKAGE_SENT", group: "Package", description: "A package was sent to its recipients." },
  { name: "PACKAGE_COMPLETED", group: "Package", description: "Every recipient has signed; the package is complete." },
  { name: "PACKAGE_DECLINED", group: "Package", description: "A recipient declined, so the package stopped." },
  { name: "PACKAGE_VOIDED", group: "Package", description: "A member voided the package." },
  { name: "PACKAGE_EXPIRED", group: "Package", description: "The package reached its expiry date unsigned." },
  { name: "PACKAGE_ON_HOLD", group: "Package", description: "A member put the package on hold." },
  { name: "PACKAGE_RESUMED", group: "Package", description: "A package on hold was resumed." },
  { name: "PACKAGE_SCHEDULED", group: "Package", description: "The package was scheduled to be sent later." },
  { name: "PACKAGE_DELETED", group: "Package", description: "A member deleted the package." },
  { name: "SESSION_SENT", group: "Recipient session", description: "A recipient was invited to sign." },
  { name: "SESSION_OPENED", group: "Recipient session", description: "A recipient opened their signing page." },
  { name: "SESSION_COMPLETED", group: "Recipient session", description: "A recipient finished signing." },
  { name: "SESSION_DECLINED", group: "Recipient session", description: "A recipient declined to sign." },
  { name: "SESSION_REMINDED", group: "Recipient session", description: "A reminder was sent to a recipient." },
  { name: "SESSION_CANCELLED", group: "Recipient session", description: "A recipient's session was cancelled." },
];

export const ALL_EVENTS: TEventName[] = EVENT_INFO.map((e) => e.name);
export const DELIVERY_STATUS_OPTIONS = ["PENDING", "DELIVERED", "FAILED", "EXHAUSTED"] as const;
