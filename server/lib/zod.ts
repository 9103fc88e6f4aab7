/** zod with `.openapi()` metadata. Every API schema imports `z` from here so one schema both validates and documents. */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

// A missing field says so, and what it expects (zod's own text is "expected string, received undefined").
z.config({ customError: (iss) => (iss.code === "invalid_type" && iss.input === undefined ? `Required: expected ${iss.expected}` : undefined) });

/**
 * A schema's own message for a wrong value (`z.email(valueError("Enter a valid email address"))`) that leaves a
 * wrong type, or a missing field, to zod's text saying which type was expected.
 */
export function valueError(message: string) {
  return { error: (iss: z.core.$ZodRawIssue) => (iss.code === "invalid_type" ? undefined : message) };
}

export { z };
