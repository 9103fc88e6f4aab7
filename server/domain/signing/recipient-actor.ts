/** A recipient acting on their own session only (the signing page), identified by the session its link opens. */
export type TRecipientActor = { kind: "recipient"; sessionId: string; clientAddress: string | null; userAgent: string | null };
