/**
 * The catalogue of audited changes: every action a capability records with `auditChange`, under the subject
 * whose hash chain it joins (audit_events.subject_type). An action names its subject, so a call cannot file an
 * event on the wrong chain. `records`: fields of the subject every event of that kind carries in its data.
 */
export const AUDIT_SUBJECTS = {
  package: {
    actions: [
      "package.created",
      "package.updated",
      "package.deleted",
      "package.sent",
      "package.scheduled",
      "package.schedule_failed",
      "package.held",
      "package.resumed",
      "package.reminded",
      "package.voided",
      "package.expired",
      "package.completed",
      "package.transferred",
      "package.shared",
      "package.unshared",
      "package.recipient_added",
      "package.recipient_updated",
      "package.recipient_removed",
      "package.signing_url_created",
      "package.seal_failed",
      "package.seal_retried",
      "package.evidence_degraded",
      "package.evidence_upgraded",
      "package.evidence_renewed",
      "package.lock_broken",
      "session.opened",
      "session.consented",
      "session.declined",
      "session.completed",
      // Signer authentication (issue 21): a code mailed, a check passed or failed, the lock and its release.
      "recipient.authentication.requested",
      "recipient.authentication.passed",
      "recipient.authentication.failed",
      "recipient.authentication.locked",
      "recipient.authentication.unlocked",
      // Embedded signing (issue 23): a single-use embedded signing URL opened in a frame.
      "recipient.embed_opened",
    ],
  },
  template: {
    actions: [
      "template.created",
      "template.updated",
      "template.status_changed",
      "template.deleted",
      "template.role_added",
      "template.role_updated",
      "template.role_deleted",
      "template.field_added",
      "template.field_updated",
      "template.field_deleted",
      "template.lock_broken",
    ],
  },
  document: {
    actions: ["document.added", "document.uploaded", "document.converted", "document.deleted"],
    records: ["name", "templateId", "packageId"],
  },
  library_document: { actions: ["library.document_uploaded", "library.document_updated", "library.document_deleted"] },
  signing_group: {
    actions: ["signing_group.created", "signing_group.renamed", "signing_group.deleted", "signing_group.member_added", "signing_group.member_removed"],
  },
  custom_field: { actions: ["custom_field.created", "custom_field.updated", "custom_field.deleted"] },
  webhook_endpoint: {
    actions: ["webhook.endpoint_created", "webhook.endpoint_updated", "webhook.endpoint_deleted", "webhook.secret_rotated", "webhook.deliveries_replayed"],
  },
  organisation: { actions: ["organisation.created", "organisation.ip_allowlist_changed", "organisation.plan_changed"] },
  workspace: { actions: ["workspace.created", "workspace.renamed", "workspace.test_mode_changed", "workspace.embed_origins_changed", "workspace.deleted"] },
  role: { actions: ["role.created", "role.updated", "role.deleted"] },
  member: {
    actions: [
      "member.added",
      "member.invite_accepted",
      "member.role_changed",
      "member.removed",
      "member.password_changed",
      "member.password_link_issued",
      "member.password_reset",
      "member.ownership_transferred",
      "member.renamed",
      // The member's own sessions (server/domain/member-sessions/): a sign-in, one session signed out from another, all the others, all of them by the
      // owner, one of them by the owner.
      "member.signed_in",
      "member.session_ended",
      "member.other_sessions_ended",
      "member.sessions_ended",
      "member.session_ended_by_owner",
      // A wrong password given for the member's address (server/domain/member-sessions/record-failed-sign-in.ts).
      "member.sign_in_failed",
    ],
  },
  api_key: { actions: ["api_key.created", "api_key.revoked"] },
} as const satisfies Record<string, { actions: readonly string[]; records?: readonly string[] }>;

export type TAuditSubjectType = keyof typeof AUDIT_SUBJECTS;
export type TAuditAction<S extends TAuditSubjectType = TAuditSubjectType> = (typeof AUDIT_SUBJECTS)[S]["actions"][number];

const SUBJECT_OF = new Map<string, TAuditSubjectType>(
  Object.entries(AUDIT_SUBJECTS).flatMap(([subject, { actions }]) => actions.map((action) => [action, subject as TAuditSubjectType])),
);

/** The subject type whose chain an action joins. */
export function auditSubjectOf(action: TAuditAction): TAuditSubjectType {
  return SUBJECT_OF.get(action)!;
}
