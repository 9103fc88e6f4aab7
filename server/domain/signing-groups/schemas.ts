/**
 * Every schema of signing groups: named lists of people (email, name) in a workspace, any one of whom may act
 * for a template role or a recipient that names the group. Read through the API (every group, by name, with
 * members); managed in the app.
 */
import { z } from "@/server/lib/zod";

const ZName = z.string().trim().min(1, "Enter a name").max(200, "At most 200 characters");
const ZEmail = z
  .string()
  .trim()
  .max(320, "At most 320 characters")
  .pipe(z.email("Enter a valid email address"))
  .transform((v) => v.toLowerCase());
const ZMemberName = z.string().trim().max(200, "At most 200 characters").nullable().optional();

export const ZSigningGroupParams = z.object({
  groupId: z.string().min(1).openapi({ example: "sgrp_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4" }),
});
export const ZSigningGroupMemberParams = ZSigningGroupParams.extend({ memberId: z.string().min(1) });
/** Domain inputs: the operation's params (and body) merged, as the route parsed them. */
export type TSigningGroupRef = z.output<typeof ZSigningGroupParams>;
export type TSigningGroupMemberRef = z.output<typeof ZSigningGroupMemberParams>;

export const ZSigningGroupMember = z
  .object({ id: z.string(), email: z.string().openapi({ description: "Lower-cased" }), name: z.string().nullable() })
  .openapi("SigningGroupMember");

export const ZSigningGroup = z
  .object({
    id: z.string(),
    name: z.string(),
    members: z.array(ZSigningGroupMember).openapi({ description: "By email" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("SigningGroup");
export type TSigningGroup = z.output<typeof ZSigningGroup>;

export const ZSigningGroupList = z
  .object({ signingGroups: z.array(ZSigningGroup).openapi({ description: "Every group of the workspace, by name" }) })
  .openapi("SigningGroupList");

export const ZAddSigningGroupMember = z.object({ email: ZEmail, name: ZMemberName }).openapi("AddSigningGroupMember");
export type TAddSigningGroupMember = z.output<typeof ZAddSigningGroupMember>;

const uniqueEmails = (members: { email: string }[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  members.forEach((m, i) => {
    if (seen.has(m.email)) ctx.addIssue({ code: "custom", path: [i, "email"], message: "Each email address may appear once" });
    seen.add(m.email);
  });
};

export const ZCreateSigningGroup = z
  .object({
    name: ZName,
    members: z.array(ZAddSigningGroupMember).max(100, "At most 100 members").superRefine(uniqueEmails).default([]),
  })
  .openapi("CreateSigningGroup");
export type TCreateSigningGroup = z.output<typeof ZCreateSigningGroup>;

export const ZUpdateSigningGroup = z.object({ name: ZName }).openapi("UpdateSigningGroup");
export type TUpdateSigningGroup = z.output<typeof ZUpdateSigningGroup>;

export const ZDeletedSigningGroup = z.object({ id: z.string(), deleted: z.literal(true) });

export type TRenameSigningGroupInput = TSigningGroupRef & TUpdateSigningGroup;
export type TAddSigningGroupMemberInput = TSigningGroupRef & TAddSigningGroupMember;
