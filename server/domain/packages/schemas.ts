/**
 * Every schema of the packages capability, for both doors: request bodies, params, queries and every response
 * shape. Decisions where the spec is silent are written into the descriptions (they reach the OpenAPI document).
 */
import { EVIDENCE_LEVELS } from "@/common/evidence";
import { PACKAGE_STATUSES, SESSION_STATUSES } from "@/server/db/schema";
import { pagedSchema, ZPageQuery } from "@/server/lib/pagination";
import { checkedOnItsOwn } from "@/server/lib/parse";
import { valueError, z } from "@/server/lib/zod";
import { ZAddDocument, ZAddedDocument, ZTemplateDocument } from "@/server/domain/templates/schemas";
import { ZSigningUrlEmbed } from "@/server/domain/embedding/schemas";
import { ZRecipientAuthentication, ZRecipientAuthenticationInput, ZSignerIdentity, ZSignerIdentityInput } from "./recipient-authentication";

export const ZTime = z.string().openapi({ format: "date-time", example: "2030-01-01T12:00:00.000Z" });

/** A date-time in a request: ISO 8601 with an offset or Z, parsed to a Date. */
const ZInputTime = z.iso
  .datetime({ offset: true, ...valueError("Use an ISO 8601 date-time, e.g. 2030-01-01T12:00:00Z") })
  .transform((s) => new Date(s))
  .openapi({ type: "string", format: "date-time", example: "2030-01-01T12:00:00Z" });

const ID_EXAMPLE = "pkg_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4";

export const ZPackageStatus = z.enum(PACKAGE_STATUSES).openapi("PackageStatus", {
  description: "DRAFT → (SCHEDULED →) IN_PROGRESS → COMPLETED | DECLINED | VOID; IN_PROGRESS ↔ ON_HOLD. An expired package reads VOID with `expiredAt` set.",
});
export const ZSessionStatus = z.enum(SESSION_STATUSES).openapi("RecipientSessionStatus", {
  description:
    "PENDING: not invited yet (a draft, or a later recipient of a sequential package); SENT: invited; OPENED: opened; COMPLETED; DECLINED; CANCELLED (the package ended before they acted)",
});

export const ZPackageParams = z.object({ packageId: z.string().min(1).openapi({ example: ID_EXAMPLE }) });
/** Domain input naming one package: the operation's params as the route parsed them. */
export type TPackageRef = z.output<typeof ZPackageParams>;
export const ZPackageDocumentParams = ZPackageParams.extend({ documentId: z.string().min(1) });
export const ZPackageSessionParams = ZPackageParams.extend({ sessionId: z.string().min(1) });
export type TPackageDocumentRef = z.output<typeof ZPackageDocumentParams>;
export type TPackageSessionRef = z.output<typeof ZPackageSessionParams>;

const ZEmail = z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address").max(320)).openapi({ example: "jane@example.com" });
const ZName = z.string().trim().min(1, "Enter a name").max(200, "At most 200 characters");
const ZTitle = z.string().trim().min(1, "Enter a title").max(300, "At most 300 characters").openapi({ example: "Lease renewal — Flat 4B" });
const ZExternalId = z
  .string()
  .trim()
  .min(1)
  .max(200, "At most 200 characters")
  .openapi({ description: "Your own reference; unique among the workspace's packages", example: "crm-8812" });

export const ZMetadataInput = z.record(z.string(), z.string().max(2000, "At most 2,000 characters").nullable()).openapi({
  description:
    "Custom field values keyed by the key of an ACTIVE custom field definition of the workspace (one for every template, or for this template). An unknown key is 422 at `metadata.<key>`; empty and null values are dropped.",
  example: { contractNumber: "C-42" },
});

const REMINDERS_DESCRIPTION = "Automatic reminders for each invited recipient; none while the package is on hold";
const remindersDays = {
  firstAfterDays: z.number().int().min(1).max(365).openapi({ description: "Days after the invitation before the first reminder" }),
  repeatEveryDays: z.number().int().min(1).max(365).openapi({ description: "Days between later reminders" }),
};

/** As a request sets them: `max` may be omitted (3). */
const remindersInput = {
  ...remindersDays,
  max: z.number().int().min(0).max(20).default(3).openapi({ description: "Automatic reminders per recipient at most (default 3)" }),
};
export const ZReminders = z.object(remindersInput).openapi("PackageRemindersInput", { description: REMINDERS_DESCRIPTION });

/**
 * As a package answers them: `max` always present (stored with its default applied). A schema apart from the
 * request's so that the document lists `max` as required in answers (a defaulted field is optional in a request).
 */
const ZRemindersView = z
  .object({ ...remindersDays, max: z.number().int().min(0).max(20).openapi({ description: "Automatic reminders per recipient at most", example: 3 }) })
  .openapi("PackageReminders", { description: REMINDERS_DESCRIPTION });

const ZSendAt = ZInputTime.openapi({ description: "A future time: the package is SCHEDULED and sent then (PACKAGE_SCHEDULED)" });
const ZExpiresAt = ZInputTime.openapi({
  description: "When the package expires if not completed (it then reads VOID with `expiredAt`, PACKAGE_EXPIRED). Sending past it is 422.",
});

export const ZBlankRecipient = z.object({
  email: ZEmail,
  name: ZName.optional(),
  order: z.number().int().min(0).max(1000).optional().openapi({ description: "Signing order (smaller first); the list order when omitted" }),
  signingGroupId: z
    .string()
    .min(1)
    .optional()
    .openapi({ description: "A signing group of the workspace with at least one member (404-free: unknown, or without members, is 422)" }),
  authentication: ZRecipientAuthenticationInput.optional(),
  identity: ZSignerIdentityInput.optional(),
});

export const ZCreatePackage = z
  .object({
    title: ZTitle,
    recipients: z.array(ZBlankRecipient).min(1, "Add at least one recipient").max(100),
    externalId: ZExternalId.optional(),
    metadata: ZMetadataInput.optional(),
    sequential: z.boolean().default(true).openapi({ description: "Sign in order (default) or all at once" }),
    expiresAt: ZExpiresAt.optional(),
    reminders: ZReminders.optional(),
    message: z.string().trim().max(5000).optional().openapi({ description: "A message shown to the recipients" }),
  })
  .openapi("CreatePackage", { description: "A blank DRAFT without a template; add documents, then send. `externalId` already used → 409." });
export type TCreatePackage = z.output<typeof ZCreatePackage>;

export const ZTemplateRecipient = z.object({
  email: ZEmail,
  name: ZName.optional(),
  roleIndex: z.number().int().min(0).openapi({ description: "The template role's 0-based position; every role takes exactly one recipient" }),
  authentication: ZRecipientAuthenticationInput.optional().openapi({
    description:
      "How this signer must authenticate; omitted: the method the role presets (a role presetting ACCESS_CODE needs the code here: 422 at `recipients.N.authentication.accessCode`)",
  }),
  identity: ZSignerIdentityInput.optional(),
});

const ZMergeValues = z
  .record(z.string(), z.string().max(2000, "At most 2,000 characters"))
  .openapi({ description: "Values of the template's merge fields by key (unknown key: 422 at `mergeFields.<key>`); a field's default applies when omitted" });

const ZAnswers = z
  .record(z.string(), z.string().max(5000))
  .openapi({ description: "Answers to the template's sender questions by question key (unknown key: 422 at `answers.<key>`)" });

const fromTemplateBase = {
  templateId: z.string().min(1).openapi({
    description:
      "An ACTIVE template of the workspace. An unknown template, or one of another workspace, is 404 `Template not found`; one that is not ACTIVE is 422 at `templateId`.",
  }),
  recipients: z.array(ZTemplateRecipient).min(1, "Add at least one recipient").max(100),
  externalId: ZExternalId.optional(),
  metadata: ZMetadataInput.optional(),
  mergeFields: ZMergeValues.optional(),
  answers: ZAnswers.optional(),
  expiresAt: ZExpiresAt.optional(),
  reminders: ZReminders.optional(),
  sequential: z.boolean().optional().openapi({ description: "Sign in role order (default) or all at once" }),
  message: z.string().trim().max(5000).optional(),
};

export const ZCreateFromTemplate = z
  .object({
    ...fromTemplateBase,
    title: ZTitle,
    status: z.enum(["draft", "sent"]).optional().openapi({
      description:
        "`sent` sends at once, in the same transaction as the creation: when the send is refused (no credit, an unanswered question…) nothing is created and the send's error is answered. Omitted: a DRAFT.",
    }),
    sendAt: ZSendAt.optional(),
  })
  .openapi("CreatePackageFromTemplate", {
    description:
      "Copies the template (documents by reference to the same stored files, roles as recipient sessions, fields, merge values, questions): later template edits do not change the package. An `externalId` the key can see answers 200 with that package; one it cannot see is 409.",
  });
export type TCreateFromTemplate = z.output<typeof ZCreateFromTemplate>;

export const ZBulkItem = z
  .object({
    title: ZTitle.optional().openapi({ description: "The template's name when omitted" }),
    recipients: fromTemplateBase.recipients,
    externalId: fromTemplateBase.externalId,
    metadata: fromTemplateBase.metadata,
    mergeFields: fromTemplateBase.mergeFields,
  })
  .openapi("BulkSendItem", {
    description:
      "One package to create and send. Checked on its own: an item whose fields are invalid fails alone (its result has `details` by paths within the item, e.g. `recipients.0.email`).",
  });
export const ZBulkSend = z
  .object({
    templateId: z.string().min(1).openapi({
      description:
        "A template of the workspace: an unknown one, or one of another workspace, is 404 `Template not found` (nothing is sent). One that is not ACTIVE fails every item (`details` at `templateId`).",
    }),
    answers: ZAnswers.optional(),
    items: z
      .array(checkedOnItsOwn(ZBulkItem, "BulkSendItem", { RecipientAuthenticationInput: ZRecipientAuthenticationInput }))
      .min(1, "Add at least one item")
      .max(100, "At most 100 items"),
  })
  .openapi("BulkSendPackages", {
    description:
      "Each item is checked, created and sent on its own, in its own transaction; one failing item does not stop the others, " +
      "and every item gets a result at its `index`. An item whose own fields are invalid (a malformed email, an empty title…) " +
      'is not created: its result is `{ index, status: "failed", error: "Validation failed", details }` with `details` keyed ' +
      "by paths within the item (`recipients.0.email`), exactly like an item refused for the template's rules (an unknown " +
      "`roleIndex`, a missing role, an unknown merge field). The request as a whole is 422 only when its own shape is wrong: " +
      "`templateId`, `answers`, or `items` (1 to 100 objects; a value that is not an object is 422 at `items.<index>`). " +
      "Each sent item consumes one package of the allowance.",
  });
export type TBulkSend = z.output<typeof ZBulkSend>;

export const ZBulkResult = z
  .object({
    results: z.array(
      z.object({
        index: z.number().int(),
        packageId: z.string().optional(),
        status: z
          .enum(["sent", "existing", "failed"])
          .openapi({ description: "`existing`: the item's externalId named a package you can see (not sent again)" }),
        error: z.string().optional(),
        details: z.record(z.string(), z.array(z.string())).optional(),
      }),
    ),
  })
  .openapi("BulkSendResult");

export const ZListPackagesQuery = ZPageQuery.extend({
  status: z
    .enum([...PACKAGE_STATUSES, "VIEWED"])
    .optional()
    .openapi({ description: "A package state, or VIEWED: IN_PROGRESS packages a recipient has opened (`firstViewedAt` set)" }),
  search: z.string().trim().max(200).optional().openapi({ description: "Case-insensitive match anywhere in the title" }),
});
export type TListPackagesQuery = z.output<typeof ZListPackagesQuery>;

export const ZUpdatePackage = z
  .object({
    title: ZTitle.optional(),
    metadata: ZMetadataInput.optional().openapi({ description: "Replaces the metadata" }),
    externalId: ZExternalId.nullable().optional(),
    expiresAt: ZExpiresAt.nullable().optional(),
    sendAt: ZSendAt.optional().openapi({ description: "SCHEDULED packages only: moves the send (PACKAGE_SCHEDULED again). Schedule a draft with send." }),
    sequential: z.boolean().optional(),
    // Inline, not PackageRemindersInput: OpenAPI 3.0 has no valid nullable reference (`nullable` needs a `type`).
    reminders: z
      .object(remindersInput)
      .nullable()
      .optional()
      .openapi({ description: `${REMINDERS_DESCRIPTION}; null turns them off` }),
    message: z.string().trim().max(5000).nullable().optional(),
  })
  .openapi("UpdatePackage", { description: "DRAFT or SCHEDULED packages only (400 otherwise)" });
export type TUpdatePackage = z.output<typeof ZUpdatePackage>;

export const ZSendPackage = z
  .object({ sendAt: ZSendAt.optional() })
  .openapi("SendPackage", { description: "Without `sendAt` (or with a past one) the package is sent now" });
export type TSendPackage = z.output<typeof ZSendPackage>;

export const ZVoidPackage = z.object({ reason: z.string().trim().max(1000).optional() }).openapi("VoidPackage");
export type TVoidPackage = z.output<typeof ZVoidPackage>;
export const ZRemindPackage = z
  .object({ sessionId: z.string().min(1).optional().openapi({ description: "Only this recipient; every open session when omitted" }) })
  .openapi("RemindPackage");
export type TRemindPackage = z.output<typeof ZRemindPackage>;
export const ZTransferPackage = z
  .object({ userId: z.string().min(1).optional(), email: ZEmail.optional() })
  .refine((b) => (b.userId === undefined) !== (b.email === undefined), { message: "Give either userId or email", path: ["userId"] })
  .openapi("TransferPackage", { description: "The new owner: a member of the organisation, by user id or email (400 outside it)" });
export type TTransferPackage = z.output<typeof ZTransferPackage>;
export const ZSigningUrlBody = z.object({ sessionId: z.string().min(1), embed: ZSigningUrlEmbed.optional() }).openapi("CreateSigningUrl");
export type TSigningUrlBody = z.output<typeof ZSigningUrlBody>;

export const ZAddRecipient = z
  .object({
    email: ZEmail,
    name: ZName.optional(),
    order: z.number().int().min(0).max(1000).optional().openapi({
      description: "0-based signing position; at the end when omitted. In a sent sequential package it must come after every recipient already invited.",
    }),
    authentication: ZRecipientAuthenticationInput.optional(),
    identity: ZSignerIdentityInput.optional(),
  })
  .openapi("AddRecipient");
export type TAddRecipient = z.output<typeof ZAddRecipient>;
export const ZUpdateRecipient = z
  .object({
    email: ZEmail.optional(),
    name: ZName.nullable().optional(),
    authentication: ZRecipientAuthenticationInput.optional().openapi({
      description:
        "Replaces the method (and access code); also clears the failed attempts and the lock, and every browser must pass the check again. Omitted: unchanged",
    }),
    identity: ZSignerIdentityInput.nullable().optional().openapi({ description: "Replaces the asserted identity; null clears it; omitted: unchanged" }),
  })
  .openapi("UpdateRecipient", {
    description:
      "An invited recipient whose email changes is invited again (new link, SESSION_SENT). Giving `authentication` unlocks a recipient locked after 5 wrong codes.",
  });
export type TUpdateRecipient = z.output<typeof ZUpdateRecipient>;

/** The same two forms as a template's document (a PDF or DOCX to upload, or a library document). */
export const ZAddPackageDocument = ZAddDocument;
export type TAddPackageDocument = z.output<typeof ZAddPackageDocument>;

// ——— Responses ———

export const ZRecipientSession = z
  .object({
    id: z.string().openapi({ description: "The session id used in session events" }),
    order: z.number().int().openapi({ description: "0-based signing position" }),
    roleIndex: z.number().int().nullable(),
    roleName: z.string().nullable(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    signingGroupId: z.string().nullable(),
    status: ZSessionStatus,
    sentAt: ZTime.nullable(),
    openedAt: ZTime.nullable(),
    completedAt: ZTime.nullable(),
    declinedAt: ZTime.nullable(),
    declineReason: z.string().nullable(),
    authentication: ZRecipientAuthentication,
    identity: ZSignerIdentity.nullable(),
  })
  .openapi("RecipientSession");

export const ZPackageDocument = ZTemplateDocument.extend({
  position: z.number().int().openapi({ description: "0-based place in the package's order" }),
}).openapi("PackageDocument", { description: "A document of the package (the same shape as a template's, with its place in the order)" });

const summaryFields = {
  id: z.string(),
  title: z.string(),
  status: ZPackageStatus,
  externalId: z.string().nullable(),
  metadata: z.record(z.string(), z.string()).openapi({ description: "Only fields with a value; `{}` when none" }),
  templateId: z.string().nullable(),
  ownerUserId: z.string(),
  sequential: z.boolean(),
  sendAt: ZTime.nullable(),
  scheduleError: z.string().nullable().openapi({
    description:
      "Set when a scheduled send was refused when due (no credit, a document missing, an edit lock, expiry passed…): the package is a DRAFT again and this is the refusal's message. Cleared by the next send or schedule; null otherwise.",
  }),
  expiresAt: ZTime.nullable(),
  expiredAt: ZTime.nullable(),
  sentAt: ZTime.nullable(),
  firstViewedAt: ZTime.nullable(),
  completedAt: ZTime.nullable(),
  declinedAt: ZTime.nullable(),
  voidedAt: ZTime.nullable(),
  createdAt: ZTime,
  updatedAt: ZTime,
};

export const ZSealing = z
  .object({
    state: z.enum(["PENDING", "RETRYING", "FAILED"]).openapi({
      description:
        "PENDING: queued or in progress; RETRYING: the last attempt failed and another is scheduled; FAILED: sealing stopped retrying on its own (after 8 attempts, or at once when the stored document cannot be sealed) — the package stays IN_PROGRESS until it is retried from the app's package page, or voided",
    }),
    requestedAt: ZTime.openapi({ description: "When the last recipient finished" }),
    attempts: z.number().int().openapi({ description: "Attempts started so far (since the last manual retry)" }),
    lastError: z.string().nullable().openapi({ description: "Why the last attempt failed" }),
    nextAttemptAt: ZTime.nullable().openapi({ description: "When the next attempt may start (while one runs: when its lease ends); null once FAILED" }),
    failedAt: ZTime.nullable().openapi({ description: "When sealing stopped retrying (state FAILED); null otherwise" }),
  })
  .openapi("Sealing", {
    description: "Sealing in progress: the sealed PDFs and the certificate are being made; PACKAGE_COMPLETED follows when they are stored",
  });

export const ZEvidenceLevel = z.enum(EVIDENCE_LEVELS).openapi("EvidenceLevel", {
  description:
    "The PAdES baseline level (ETSI EN 319 142-1) of a sealed file. B-B: signed, with this server's clock only (no trusted time); B-T: plus a signature time-stamp from a time-stamping authority (TSA); B-LT: plus the certificates and revocation data needed to validate it later; B-LTA: plus a document time-stamp over all of it, renewed before the TSA's certificate expires",
});

export const ZPackageEvidence = z
  .object({
    level: ZEvidenceLevel.openapi({ description: "The weakest level among the package's sealed files (each document, the merged PDF, the certificate)" }),
    timestampedAt: ZTime.nullable().openapi({ description: "The trusted time of that file's signature time-stamp; null at B-B (no trusted time)" }),
    timestampAuthority: z
      .string()
      .nullable()
      .openapi({ description: "Who issued that time-stamp (the TSA certificate's subject); null at B-B", example: "CN=Example TSA,O=Example" }),
    upgradePending: z.boolean().openapi({
      description:
        "True while the files are below B-LTA because no TSA answered when they were sealed: a job retries (first within 30 s, then backing off to hourly) and upgrades the stored files by an incremental update. Downloads always serve the newest version",
    }),
  })
  .openapi("PackageEvidence", { description: "What the package's seals prove about time, and for how long they stay verifiable" });
export type TPackageEvidence = z.infer<typeof ZPackageEvidence>;

export const ZPackageSummary = z
  .object({
    ...summaryFields,
    recipientCounts: z
      .object({ total: z.number().int(), completed: z.number().int() })
      .openapi({ description: 'The package\'s recipients, and how many of them have signed (for "1 of 2 signed")' }),
  })
  .openapi("PackageSummary");

export const ZPackage = z
  .object({
    ...summaryFields,
    message: z.string().nullable(),
    voidReason: z.string().nullable(),
    reminders: ZRemindersView.nullable(),
    mergeValues: z.record(z.string(), z.string()),
    questions: z.array(z.object({ key: z.string(), label: z.string(), required: z.boolean() })),
    answers: z.record(z.string(), z.string()),
    recipientSessions: z.array(ZRecipientSession).openapi({ description: "In signing order" }),
    documents: z.array(ZPackageDocument),
    sealing: ZSealing.nullable().openapi({
      description: "While every recipient has finished and the sealed files are being made (the package still reads IN_PROGRESS); null otherwise",
    }),
    evidence: ZPackageEvidence.nullable().openapi({ description: "Once the package is sealed (COMPLETED): its evidence level and time-stamp; null before" }),
  })
  .openapi("Package");
export type TPackage = z.infer<typeof ZPackage>;

export const ZPackageList = pagedSchema("packages", ZPackageSummary).openapi("PackageList");
export const ZDeletedPackage = z.object({ id: z.string(), deleted: z.literal(true) }).openapi("DeletedPackage");
export const ZRemindResult = z.object({ reminded: z.array(z.string()).openapi({ description: "Session ids reminded" }) }).openapi("RemindResult");
export const ZSigningUrl = z.object({ url: z.string(), expiresAt: ZTime }).openapi("SigningUrl", {
  description:
    "Valid 60 minutes; issuing a new one revokes the previous link of that session. With `embed`: a single-use URL valid 5 minutes, for a frame on that origin only; it leaves the session's other link alone",
});
export const ZPackageDocumentList = z.object({ documents: z.array(ZPackageDocument) }).openapi("PackageDocumentList");
export const ZAddedPackageDocument = ZAddedDocument;
export const ZDeletedDocument = z.object({ id: z.string(), deleted: z.literal(true) });
export const ZDeletedRecipient = z.object({ id: z.string(), deleted: z.literal(true) });

export const ZAuditEvent = z
  .object({
    id: z.string(),
    action: z.string().openapi({
      example: "package.sent",
      description:
        "What happened, e.g. `package.sent`, `session.completed`. Signer authentication: `recipient.authentication.requested` (an email code was mailed; `data.to` is the masked address), `.passed`, `.failed` (`data.attempts`, `data.attemptsLeft`), `.locked` (5 wrong codes), `.unlocked` (by the sender; `data.via: correction` when by correcting the recipient) — each with `data.sessionId`, `data.email`, `data.method` and, for the recipient's own steps, `data.userAgent` and the `clientAddress`; never a code",
    }),
    actorUserId: z.string().nullable(),
    actorEmail: z.string().nullable(),
    apiKeyId: z.string().nullable(),
    clientAddress: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    createdAt: ZTime,
    previousHash: z.string().nullable().openapi({ description: "The hash of the package's previous audit event (null for its first)" }),
    hash: z.string().nullable().openapi({
      description:
        "SHA-256 (hex) over `previousHash` and this event's content (action, actor, key, client address, data, createdAt): the package's events form a hash chain, so a changed or removed event is detectable",
    }),
  })
  .openapi("AuditEvent");
export const ZAuditEventList = pagedSchema("auditEvents", ZAuditEvent).openapi("AuditEventList");

/** Never parsed: file operations answer a file (their `binaryResponse` type: a FileAnswer or a RawResponse), not `{ data }`. */
export const ZFileResponse = z.unknown().openapi({ description: "The file itself (application/pdf or application/zip)" });

// ——— Shares (the app only: /api/app/packages/{packageId}/shares) ———

export const ZPackageShareParams = ZPackageParams.extend({ userId: z.string().min(1) });
export type TPackageShareRef = z.output<typeof ZPackageShareParams>;
export const ZSharePackage = z
  .object({ userId: z.string().trim().min(1, "Choose a member").openapi({ example: "usr_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f70" }) })
  .openapi("SharePackage", {
    description: "The member to share with: a current member of the organisation (invited members included), not the package's owner",
  });
export type TSharePackage = z.output<typeof ZSharePackage>;

export const ZPackageShare = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    sharedAt: ZTime,
    sharedBy: z
      .object({ userId: z.string(), name: z.string(), email: z.string() })
      .nullable()
      .openapi({ description: "The member who shared it; null when unknown (their account was deleted)" }),
  })
  .openapi("PackageShare");
export type TPackageShare = z.output<typeof ZPackageShare>;
export const ZPackageShareList = z
  .object({
    shares: z.array(ZPackageShare),
    canManage: z.boolean().openapi({ description: "Whether the actor may add or remove shares: the package's owner, or a holder of canViewAllPackages" }),
  })
  .openapi("PackageShareList");
export type TPackageShareList = z.output<typeof ZPackageShareList>;
export const ZRemovedShare = z.object({ userId: z.string(), removed: z.literal(true) }).openapi("RemovedPackageShare");
export type TRemovedShare = z.output<typeof ZRemovedShare>;
