/**
 * Every schema of the organisation capability (the organisation and its owner, members and invites, roles,
 * workspaces and the switcher's choice, plan, IP allowlist, the account a key acts as): what the public API
 * and the app's own routes accept and answer. The output types are inferred from these, so each shape is
 * written once. Dates stay `Date` in the domain and reach JSON as ISO strings.
 */
import { IP_ENTRY_MESSAGE, isIpOrCidr } from "@/common/ip-entry";
import { TEMPLATE_ACCESS } from "@/server/db/schema";
import { valueError, z } from "@/server/lib/zod";

// ——— The public API (/api/v1): the account a key acts as ———

export const ZWorkspace = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    isDefault: z.boolean(),
    test: z.boolean().openapi({ description: "A test workspace: keys read fsk_test_…, no mail leaves, no allowance used, seals marked TEST" }),
  })
  .openapi("Workspace");

export const ZAccount = z
  .object({
    organisation: z.object({ id: z.string(), name: z.string() }),
    workspace: z.object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      test: z.boolean().openapi({ description: "A test workspace: keys read fsk_test_…, no mail leaves, no allowance used, seals marked TEST" }),
    }),
    role: z.object({
      id: z.string(),
      name: z.string(),
      permissions: z.object({
        apiAccess: z.boolean(),
        canSendPackages: z.boolean(),
        canViewAllPackages: z.boolean(),
        canManageWebhooks: z.boolean(),
        templateAccess: z.enum(TEMPLATE_ACCESS),
      }),
    }),
    issuedBy: z.object({ id: z.string(), email: z.string(), name: z.string() }),
    apiKey: z.object({ id: z.string(), name: z.string(), prefix: z.string() }),
  })
  .openapi("Account");

// ——— First run and the signed-in member ———

export const ZCreateOwner = z.object({
  name: z.string().trim().min(1, "Name is required").max(200, "Use at most 200 characters"),
  email: z.email(valueError("Enter a valid email address")).transform((e) => e.toLowerCase()),
  password: z.string().min(10, "Use at least 10 characters").max(200, "Use at most 200 characters"),
  organisationName: z.string().trim().min(1, "Organisation name is required").max(200, "Use at most 200 characters"),
});
export type TCreateOwner = z.output<typeof ZCreateOwner>;

/** What /setup learns: the new organisation and its owner (the owner then signs in). */
export const ZCreatedOwner = z.object({ organisationId: z.string(), userId: z.string() });

/** The signed-in member as the app sees them (GET /api/app/me). */
export const ZMe = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  isOwner: z.boolean(),
  organisation: z.object({ id: z.string(), name: z.string() }),
  workspace: ZWorkspace,
  role: z.object({
    id: z.string(),
    name: z.string(),
    permissions: z.object({
      canSendPackages: z.boolean(),
      canViewAllPackages: z.boolean(),
      canManageWebhooks: z.boolean(),
      templateAccess: z.enum(TEMPLATE_ACCESS),
    }),
  }),
});

// ——— Members and invites ———

export const ZMemberName = z.string().trim().min(1, "Name is required").max(200, "Use at most 200 characters");
export const ZMemberEmail = z
  .email(valueError("Enter a valid email address"))
  .max(320)
  .transform((e) => e.toLowerCase());
/** The same rule as the owner's password at setup. */
export const ZPassword = z.string().min(10, "Use at least 10 characters").max(200, "Use at most 200 characters");

export const ZMemberParams = z.object({ userId: z.string().min(1) });

const memberBase = { name: ZMemberName, email: ZMemberEmail, roleId: z.string().min(1, "Choose a role") };
/** Either the owner sets an initial password, or the member gets a one-time invite link (7 days). */
export const ZAddMember = z.discriminatedUnion("method", [
  z.object({ method: z.literal("password"), ...memberBase, password: ZPassword }),
  z.object({ method: z.literal("invite"), ...memberBase }),
]);
export type TAddMember = z.output<typeof ZAddMember>;

export const ZAddedMember = z.object({
  userId: z.string(),
  /** With method "invite": the link path `/invite/<token>`, returned this once (only its hash is stored). */
  invite: z.object({ path: z.string(), expiresAt: z.date() }).nullable(),
});
export type TAddedMember = z.infer<typeof ZAddedMember>;

export const ZChangeMemberRole = z.object({ userId: z.string().min(1), roleId: z.string().min(1, "Choose a role") });
/** The operation's params and body merged, as the route parsed them (the domain does not parse again). */
export type TChangeMemberRole = z.output<typeof ZChangeMemberRole>;
export const ZChangeMemberRoleBody = ZChangeMemberRole.omit({ userId: true });
export const ZChangedMemberRole = z.object({ userId: z.string(), roleId: z.string() });
export type TChangedMemberRole = z.infer<typeof ZChangedMemberRole>;

export const ZRemoveMember = z.object({ userId: z.string().min(1) });
export type TRemoveMember = z.output<typeof ZRemoveMember>;
export const ZRemovedMember = z.object({ userId: z.string(), removed: z.literal(true) });
export type TRemovedMember = z.infer<typeof ZRemovedMember>;

export const ZMemberItem = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.object({ id: z.string(), name: z.string() }),
  isOwner: z.boolean(),
  /** INVITED: the member has not set a password yet (through the invite link). */
  status: z.enum(["ACTIVE", "INVITED"]),
  /** When the pending invite link stops working; null when there is none (or it has expired). */
  inviteExpiresAt: z.date().nullable(),
  joinedAt: z.date(),
});
export type TMemberItem = z.infer<typeof ZMemberItem>;

// ——— Passwords (docs/decisions/passwords.md) ———

/** The signed-in member changes their own password: the current one proves it is them. */
export const ZChangePassword = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200, "Use at most 200 characters"),
  newPassword: ZPassword,
});
export type TChangePassword = z.output<typeof ZChangePassword>;
export const ZChangedPassword = z.object({ changed: z.literal(true) });

/**
 * The owner's one-time link for a member: a password reset (24 hours) for a member who has a password, a new
 * invitation (7 days) for one who has not. The path is returned this once; only its hash is stored.
 */
export const ZPasswordLink = z.object({
  userId: z.string(),
  purpose: z.enum(["invite", "reset"]),
  path: z.string(),
  expiresAt: z.date(),
});
export type TPasswordLink = z.infer<typeof ZPasswordLink>;

/** The signed-in member's own name (what "Issued by", the audit trail and the app show). */
export const ZRenameMe = z.object({ name: ZMemberName });
export type TRenameMe = z.output<typeof ZRenameMe>;
export const ZRenamedMe = z.object({ name: z.string() });

/** Handing the organisation to another member: the owner's own password confirms it. */
export const ZTransferOwnershipBody = z.object({ password: z.string().min(1, "Enter your password").max(200, "Use at most 200 characters") });
export const ZOwnershipTransferred = z.object({ ownerUserId: z.string() });

/** "Forgot your password?": the address to send a reset link to, if it is a member's. */
export const ZRequestPasswordReset = z.object({ email: ZMemberEmail });
/** The same answer whether the address is a member's or not. */
export const ZPasswordResetRequested = z.object({ requested: z.literal(true) });

export const ZInviteParams = z.object({ token: z.string().min(1) });
export const ZAcceptInvite = z.object({ token: z.string().min(1), name: ZMemberName.optional(), password: ZPassword });
export type TAcceptInvite = z.output<typeof ZAcceptInvite>;
/** The token travels in the path, not the body. */
export const ZAcceptInviteBody = ZAcceptInvite.omit({ token: true });
export const ZAcceptedInvite = z.object({ userId: z.string(), email: z.string(), purpose: z.enum(["invite", "reset"]) });
export type TAcceptedInvite = z.infer<typeof ZAcceptedInvite>;

// ——— Roles ———

export const ZRoleParams = z.object({ roleId: z.string().min(1) });

/** The spec's permissions of a role, shared by create and update so the UI validates the same way. */
const ZRoleFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Use at most 100 characters"),
  apiAccess: z.boolean().default(false),
  canSendPackages: z.boolean().default(false),
  canViewAllPackages: z.boolean().default(false),
  canManageWebhooks: z.boolean().default(false),
  templateAccess: z.enum(TEMPLATE_ACCESS).default("USE"),
});

export const ZCreateRole = ZRoleFields;
export type TCreateRole = z.output<typeof ZCreateRole>;

/** Only the fields given change. No defaults here: an omitted permission keeps its value. */
export const ZUpdateRole = z.object({
  id: z.string().min(1),
  name: ZRoleFields.shape.name.optional(),
  apiAccess: z.boolean().optional(),
  canSendPackages: z.boolean().optional(),
  canViewAllPackages: z.boolean().optional(),
  canManageWebhooks: z.boolean().optional(),
  templateAccess: z.enum(TEMPLATE_ACCESS).optional(),
});
export type TUpdateRole = z.output<typeof ZUpdateRole>;
export const ZUpdateRoleBody = ZUpdateRole.omit({ id: true });

export const ZDeleteRole = z.object({ id: z.string().min(1) });
export type TDeleteRole = z.output<typeof ZDeleteRole>;
export const ZDeletedRole = z.object({ id: z.string(), deleted: z.literal(true) });
export type TDeletedRole = z.infer<typeof ZDeletedRole>;

/** What creating or changing a role answers. */
export const ZRoleRef = z.object({ id: z.string() });
export type TRoleRef = z.infer<typeof ZRoleRef>;

export const ZRoleItem = z.object({
  id: z.string(),
  name: z.string(),
  /** "admin", "sender" or "viewer" for the read-only built-in roles; null for custom roles. */
  builtIn: z.enum(["admin", "sender", "viewer"]).nullable(),
  apiAccess: z.boolean(),
  canSendPackages: z.boolean(),
  canViewAllPackages: z.boolean(),
  canManageWebhooks: z.boolean(),
  templateAccess: z.enum(TEMPLATE_ACCESS),
  memberCount: z.number().int(),
  /** Keys not revoked. */
  keyCount: z.number().int(),
  /** Custom, with no member and no key at all (revoked keys still reference their role). */
  deletable: z.boolean(),
});
export type TRoleItem = z.infer<typeof ZRoleItem>;

// ——— Workspaces and the switcher ———

export const ZWorkspaceParams = z.object({ workspaceId: z.string().min(1) });

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

/** Create: name, slug and, optionally, a test workspace (docs/decisions/test-mode.md). */
export const ZCreateWorkspace = ZWorkspaceFields.extend({ test: z.boolean().optional() });
export type TCreateWorkspace = z.output<typeof ZCreateWorkspace>;

/** Test mode on or off (owner only; refused once the workspace has sent a package; its keys are revoked). */
export const ZSetWorkspaceTestMode = z.object({ test: z.boolean() });
export type TSetWorkspaceTestMode = z.output<typeof ZSetWorkspaceTestMode> & { id: string };

export const ZRenameWorkspace = ZWorkspaceFields.extend({ id: z.string().min(1) });
export type TRenameWorkspace = z.output<typeof ZRenameWorkspace>;

export const ZWorkspaceItem = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  isDefault: z.boolean(),
  isTest: z.boolean(),
  /** A package of it has left DRAFT: its mode is fixed, and a live one cannot be deleted. */
  hasSent: z.boolean(),
  createdAt: z.date(),
});
export type TWorkspaceItem = z.infer<typeof ZWorkspaceItem>;
/** A deleted workspace, and what went with it. */
export const ZDeletedWorkspace = z.object({
  id: z.string(),
  name: z.string(),
  deleted: z.object({ templates: z.number().int(), packages: z.number().int(), apiKeys: z.number().int(), webhookEndpoints: z.number().int() }),
});
export const ZWorkspaceTestModeResult = ZWorkspaceItem.extend({ keysRevoked: z.number().int() });
export type TWorkspaceTestModeResult = z.infer<typeof ZWorkspaceTestModeResult>;

/** The shell's switcher: a workspace of the member's organisation. */
export const ZChooseWorkspace = z.object({ workspaceId: z.string().min(1) });
export type TChooseWorkspace = z.input<typeof ZChooseWorkspace>;
export const ZChosenWorkspace = z.object({ id: z.string(), name: z.string() });
export type TChosenWorkspace = z.infer<typeof ZChosenWorkspace>;

// ——— Plan and security ———

export const ZPlan = z.object({
  features: z.object({ publicApi: z.boolean(), webhooks: z.boolean(), customFields: z.boolean() }),
  /** Packages that may be sent; null means unlimited. */
  packageAllowance: z.number().int().nullable(),
  packagesUsed: z.number().int(),
  /** Templates the organisation may hold (all workspaces); null means unlimited. */
  maxTemplates: z.number().int().nullable(),
  /** Recipients one package may have; null means unlimited. */
  maxRecipientsPerPackage: z.number().int().nullable(),
});
export type TPlan = z.infer<typeof ZPlan>;

export const ZSetPlan = z.object({
  organisationId: z.string().min(1),
  publicApi: z.boolean().optional(),
  webhooks: z.boolean().optional(),
  customFields: z.boolean().optional(),
  /** null: unlimited. */
  packageAllowance: z.number().int().min(0).nullable().optional(),
  /** null: unlimited. */
  maxTemplates: z.number().int().min(0).nullable().optional(),
  /** null: unlimited. */
  maxRecipientsPerPackage: z.number().int().min(1).nullable().optional(),
});
export type TSetPlan = z.output<typeof ZSetPlan>;

/** One entry as the owner types it (common/ip-entry.ts says what is accepted). */
export const ZIpAllowlistEntry = z.string().trim().refine(isIpOrCidr, IP_ENTRY_MESSAGE);

export const ZIpAllowlist = z.object({ entries: z.array(z.string()) });
export type TIpAllowlist = z.infer<typeof ZIpAllowlist>;

/** Each entry is validated where it stands, so a 422 names it as `entries.<index>`. */
export const ZSetIpAllowlist = z.object({ entries: z.array(ZIpAllowlistEntry).max(200, "Use at most 200 entries") });
export type TSetIpAllowlist = z.output<typeof ZSetIpAllowlist>;
