import { z } from "@/server/http/zod";

/** Name and slug of a workspace, shared by create and rename so the UI validates both the same way. */
export const ZWorkspaceFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Use at most 100 characters"),
  slug: z
    .string()
    .trim()
    .min(1, "Slug is required")
    .max(50, "Use at most 50 characters")
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lower-case letters, digits and single hyphens, e.g. emea-sales"),
});

export const slugTaken = (slug: string) => `A workspace with the slug "${slug}" already exists`;
