/**
 * A document that cannot be sealed as given (unreadable, encrypted, a field off the page). Retrying does not
 * help; the sealing job records the message for the owner to see instead of retrying forever.
 */
export class SealingError extends Error {
  override name = "SealingError";
}
