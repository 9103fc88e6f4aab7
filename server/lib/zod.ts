/** zod with `.openapi()` metadata. Every API schema imports `z` from here so one schema both validates and documents. */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

const options = (values: readonly unknown[]) => (values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join("|")}`);

/**
 * A missing field says so, and what it expects (zod's own text is "expected string, received undefined", or only
 * the options of an enum or of a discriminated union's discriminator).
 */
function missingFieldMessage(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.code === "invalid_type" && iss.input === undefined) return `Required: expected ${iss.expected}`;
  if (iss.code === "invalid_value" && iss.input === undefined) return `Required: expected ${options(iss.values)}`;
  if (iss.code === "invalid_union" && typeof iss.discriminator === "string" && Array.isArray(iss.options)) {
    const given = typeof iss.input === "object" && iss.input !== null ? (iss.input as Record<string, unknown>)[iss.discriminator] : undefined;
    return `${given === undefined ? "Required" : "Invalid option"}: expected ${options(iss.options)}`;
  }
  return undefined;
}
z.config({ customError: missingFieldMessage });

/**
 * A schema's own message for a wrong value (`z.email(valueError("Enter a valid email address"))`) that leaves a
 * wrong type, or a missing field, to the text saying which type was expected.
 */
export function valueError(message: string) {
  return { error: (iss: z.core.$ZodRawIssue) => (iss.code === "invalid_type" || iss.input === undefined ? undefined : message) };
}

export { z };
