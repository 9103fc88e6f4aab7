/**
 * One sentence for each administrative audit event, as the Activity page shows it: what was done to what, in the
 * past tense and without the doer (the page shows who beside it). Names come from the event's own data where it
 * recorded them (a deleted thing keeps its name), else from the thing as it is now (`TActivityNames`), else a
 * plain noun ("a removed member"). Never a secret: the events' data holds none.
 */
import type { auditEvents } from "@/server/db/schema";

export type TActivityNames = {
  users: Map<string, { name: string; email: string }>;
  apiKeys: Map<string, string>;
  roles: Map<string, string>;
  workspaces: Map<string, string>;
  endpoints: Map<string, string>;
  signingGroups: Map<string, string>;
};

type TEvent = Pick<typeof auditEvents.$inferSelect, "action" | "subjectId" | "workspaceId" | "data">;

const q = (name: string) => `“${name}”`;
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function describeActivity(e: TEvent, names: TActivityNames): string {
  const d = e.data;
  const id = e.subjectId ?? "";
  const member = (userId: string | null = id, fallback?: string | null) => {
    const user = userId ? names.users.get(userId) : undefined;
    if (user) return user.name && user.name !== user.email ? `${user.name} (${user.email})` : user.email;
    return fallback ?? "a former member";
  };
  const role = (roleId: unknown) => names.roles.get(str(roleId) ?? "") ?? "a deleted role";
  const workspace = (workspaceId: string | null = id) => {
    const name = workspaceId ? names.workspaces.get(workspaceId) : undefined;
    return name ? `the workspace ${q(name)}` : "a deleted workspace";
  };
  const endpoint = () => str(d.url) ?? names.endpoints.get(id) ?? "a deleted endpoint";
  const group = () => {
    const name = str(d.name) ?? names.signingGroups.get(id);
    return name ? `the signing group ${q(name)}` : "a deleted signing group";
  };
  switch (e.action) {
    case "organisation.created":
      return "Created the organisation";
    case "organisation.ip_allowlist_changed": {
      const after = Array.isArray(d.after) ? d.after.map(String) : [];
      if (after.length === 0) return "Removed the API’s IP allowlist: keys work from any address";
      // Up to 200 entries: the first five, and how many more.
      const shown = after.length > 5 ? `${after.slice(0, 5).join(", ")} and ${after.length - 5} more` : after.join(", ");
      return `Set the API’s IP allowlist to ${shown}`;
    }
    case "organisation.plan_changed":
      return "Changed the organisation’s plan";
    case "workspace.created":
      return `Created the workspace ${q(str(d.name) ?? names.workspaces.get(id) ?? "")}`;
    case "workspace.renamed": {
      const before = obj(d.before);
      const after = obj(d.after);
      const slug = before.slug !== after.slug && str(after.slug) ? ` (slug ${str(after.slug)})` : "";
      return before.name === after.name
        ? `Changed the slug of ${workspace()} to ${str(after.slug)}`
        : `Renamed the workspace ${q(str(before.name) ?? "")} to ${q(str(after.name) ?? "")}${slug}`;
    }
    case "workspace.test_mode_changed": {
      const revoked = Array.isArray(d.keysRevoked) ? d.keysRevoked.length : 0;
      const made = `Made ${workspace()} a ${d.test === true ? "test" : "live"} workspace`;
      return revoked > 0 ? `${made}; ${plural(revoked, "API key")} revoked` : made;
    }
    case "workspace.embed_origins_changed":
      return `Changed the embedding origins of ${workspace()}`;
    case "workspace.deleted":
      return `Deleted the ${d.test === true ? "test " : ""}workspace ${q(str(d.name) ?? "")}`;
    case "role.created":
      return `Created the role ${q(str(d.name) ?? names.roles.get(id) ?? "")}`;
    case "role.updated": {
      const name = names.roles.get(id) ?? str(obj(d.changes).name);
      return name ? `Changed the role ${q(name)}` : "Changed a role since deleted";
    }
    case "role.deleted":
      return `Deleted the role ${q(str(d.name) ?? "")}`;
    case "member.added":
      return `${d.method === "invite" ? "Invited" : "Added"} ${member(id, str(d.email))} as ${role(d.roleId)}${d.readmitted === true ? " (a former member)" : ""}`;
    case "member.invite_accepted":
      return "Accepted the invitation and set a password";
    case "member.role_changed":
      return `Gave ${member()} the role ${role(d.roleId)}`;
    case "member.removed":
      return `Removed ${member()}`;
    case "member.password_changed":
      return "Changed their password";
    case "member.password_link_issued":
      if (d.by === "email") return "Asked for a password reset link by mail";
      return `Made ${d.purpose === "invite" ? "a new invitation link" : "a password reset link"} for ${member()}`;
    case "member.password_reset":
      return "Set a new password with a reset link";
    case "member.ownership_transferred":
      return `Handed the organisation over to ${member()}`;
    case "member.signed_in":
      return `Signed in (${str(d.device) ?? "an unknown browser"})`;
    case "member.session_ended":
      return `Signed out their session on ${str(d.device) ?? "an unknown browser"} from another session`;
    case "member.other_sessions_ended": {
      const n = Array.isArray(d.sessionIds) ? d.sessionIds.length : 0;
      return `Signed out ${plural(n, "other session")}`;
    }
    case "member.sessions_ended": {
      const n = Array.isArray(d.sessionIds) ? d.sessionIds.length : 0;
      return `Signed ${member()} out everywhere (${plural(n, "session")})`;
    }
    case "member.session_ended_by_owner":
      return `Signed ${member()} out of their session on ${str(d.device) ?? "an unknown browser"}`;
    case "member.sign_in_failed":
      return `A sign-in as ${member()} failed: wrong password (${str(d.device) ?? "an unknown browser"})`;
    case "member.renamed":
      return `Changed their name from ${q(str(d.from) ?? "")} to ${q(str(d.to) ?? "")}`;
    case "api_key.created":
      return `Created the API key ${q(str(d.name) ?? "")} (${str(d.prefix) ?? ""}…) with the role ${role(d.roleId)}`;
    case "api_key.revoked":
      return `Revoked the API key ${q(str(d.name) ?? names.apiKeys.get(id) ?? "")}`;
    case "webhook.endpoint_created":
      return `Added the webhook endpoint ${endpoint()}`;
    case "webhook.endpoint_updated":
      if (d.enabled === false) return `Disabled the webhook endpoint ${endpoint()}`;
      if (d.enabled === true) return `Enabled the webhook endpoint ${endpoint()}`;
      return `Changed the webhook endpoint ${endpoint()}`;
    case "webhook.endpoint_deleted":
      return `Deleted the webhook endpoint ${endpoint()}`;
    case "webhook.secret_rotated":
      return `Rotated the signing secret of ${endpoint()}`;
    case "webhook.deliveries_replayed": {
      const n = Array.isArray(d.deliveryIds) ? d.deliveryIds.length : 0;
      return `Replayed ${plural(n, "delivery", "deliveries")} to ${endpoint()}`;
    }
    case "signing_group.created":
      return `Created ${group()}`;
    case "signing_group.renamed":
      return `Renamed the signing group ${q(str(d.from) ?? "")} to ${q(str(d.to) ?? "")}`;
    case "signing_group.deleted":
      return `Deleted ${group()}`;
    case "signing_group.member_added":
      return `Added ${str(d.email) ?? "someone"} to ${group()}`;
    case "signing_group.member_removed":
      return `Removed ${str(d.email) ?? "someone"} from ${group()}`;
    case "custom_field.created":
      return `Created the custom field ${q(str(d.key) ?? "")}`;
    case "custom_field.updated":
      return `Changed the custom field ${q(str(d.key) ?? "")}`;
    case "custom_field.deleted":
      return `Deleted the custom field ${q(str(d.key) ?? "")}`;
    case "library.document_uploaded":
      return `Uploaded ${q(str(d.name) ?? "")} to the library`;
    case "library.document_updated": {
      const before = str(obj(d.before).name) ?? "";
      const after = str(obj(d.changes).name);
      return after && after !== before ? `Renamed the library document ${q(before)} to ${q(after)}` : `Changed the library document ${q(before)}`;
    }
    case "library.document_deleted":
      return `Deleted ${q(str(d.name) ?? "")} from the library`;
    default:
      return e.action;
  }
}
