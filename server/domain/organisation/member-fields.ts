import { z } from "@/server/http/zod";

export const ZMemberName = z.string().trim().min(1, "Name is required").max(200, "Use at most 200 characters");
export const ZMemberEmail = z
  .email("Enter a valid email address")
  .max(320)
  .transform((e) => e.toLowerCase());
/** The same rule as the owner's password at setup. */
export const ZPassword = z.string().min(10, "Use at least 10 characters").max(200, "Use at most 200 characters");
