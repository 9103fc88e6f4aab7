import type { TFieldType } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";

// C0/C1 controls other than tab and line breaks have no place in a signed value (and NUL breaks PostgreSQL).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LIMITS: Partial<Record<TFieldType, number>> = { signature: 120, initials: 12, name: 200, email: 254, text: 500 };

function invalid(message: string): never {
  throw errors.validation({ value: [message] }, message);
}

/**
 * A typed value for a field of this type, normalised (trimmed; empty means "cleared" → null), or a 422 naming
 * what is wrong. Dates are not typed by the recipient: the date signed is filled in when they finish.
 */
export function validateFieldValue(type: TFieldType, raw: string | null): string | null {
  if (raw === null) return null;
  if (type === "checkbox") {
    if (raw !== "true" && raw !== "false") invalid('A checkbox value is "true" or "false"');
    return raw;
  }
  const value = raw.normalize("NFC").trim();
  if (value === "") return null;
  if (CONTROL.test(value)) invalid("The value contains characters that cannot be signed");
  const limit = LIMITS[type];
  if (limit !== undefined && [...value].length > limit) invalid(`At most ${limit} characters`);
  if ((type === "signature" || type === "initials" || type === "name") && /[\r\n]/.test(value)) invalid("One line only");
  if (type === "email" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) invalid("Enter an email address, e.g. name@example.com");
  return value;
}
