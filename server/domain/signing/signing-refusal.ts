import { AppError } from "@/server/lib/errors";

/** Why a recipient cannot act now; the signing page maps each to its own clear page. */
export type TSigningRefusalReason =
  "NOT_FOUND" | "NOT_SENT" | "ON_HOLD" | "ENDED" | "NOT_YOUR_TURN" | "FINISHED" | "FIELDS_MISSING" | "AUTHENTICATION_REQUIRED";

const MESSAGES: Record<TSigningRefusalReason, string> = {
  NOT_FOUND: "This signing link is not valid",
  NOT_SENT: "This package has not been sent yet",
  ON_HOLD: "The sender has put this package on hold; you can sign once it is resumed",
  ENDED: "This package has ended and can no longer be signed",
  NOT_YOUR_TURN: "It is not your turn to sign yet",
  FINISHED: "You have already finished with this package",
  FIELDS_MISSING: "Fill in every required field before finishing",
  AUTHENTICATION_REQUIRED: "Authentication required: enter your code first",
};

const KIND = { NOT_FOUND: "NOT_FOUND", FIELDS_MISSING: "BAD_REQUEST", AUTHENTICATION_REQUIRED: "FORBIDDEN" } as const;

/** A typed refusal of a recipient transition: an AppError (404, 409, 400, or 403 before the signer's check) carrying the reason. */
export class SigningRefusal extends AppError {
  override name = "SigningRefusal";
  constructor(readonly reason: TSigningRefusalReason) {
    super(reason in KIND ? KIND[reason as keyof typeof KIND] : "CONFLICT", MESSAGES[reason]);
  }
}
