/**
 * The operator's commands behind `npm run admin -- <command>`, as functions of a database handle and parsed
 * options, so they are tested against the test database without spawning a process (admin.ts is the shell).
 * Each returns its exit code; output goes through `io` (stdout for what scripts capture, stderr for the rest).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { slugFromName } from "@/common/workspace-slug";
import type { Db } from "@/server/db/client";
import { memberships, organisations, roles, users, workspaces } from "@/server/db/schema";
import { createOrganisationWithOwner } from "@/server/domain/organisation/create-organisation";
import type { TActor } from "@/server/domain/access/actor";
import { loadSessionActor } from "@/server/domain/access/load-session-actor";
import { createApiKey } from "@/server/domain/keys/create-api-key";
import { setPlan } from "@/server/domain/organisation/set-plan";
import { readPlan } from "@/server/domain/organisation/get-plan";
import { createWorkspace } from "@/server/domain/organisation/create-workspace";
import { deleteWorkspace, previewWorkspaceDeletion, type TDeletedWorkspace } from "@/server/domain/organisation/delete-workspace";
import { ZCreateOwner, ZCreateWorkspace, ZSetPlan, type TPlan } from "@/server/domain/organisation/schemas";
import { ZCreateApiKey } from "@/server/domain/keys/schemas";
import { parseOrThrow } from "@/server/lib/parse";
import { OPERATOR } from "@/server/domain/audit/audit-change";
import { insertPasswordLink, lockLinkMember } from "@/server/domain/organisation/passwords";
import { env } from "@/server/env";

export type TIo = { out(line: string): void; err(line: string): void };
export type TOptions = Record<string, string | undefined>;

/** A mistake in the command line: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

function required(opts: TOptions, name: string): string {
  const v = opts[name];
  if (v === undefined || v === "") throw new UsageError(`--${name} is required`);
  return v;
}

export async function createOwnerCommand(db: Db, opts: TOptions, io: TIo): Promise<number> {
  const email = required(opts, "email");
  // The CLI is its own boundary: it parses what the options give, as a route parses a body.
  const input = parseOrThrow(
    ZCreateOwner,
    {
      email,
      password: required(opts, "password"),
      organisationName: required(opts, "org"),
      name: opts.name ?? email.split("@")[0] ?? email,
    },
    "input",
  );
  const created = await createOrganisationWithOwner(db, input);
  io.err(`Created organisation "${opts.org}" (${created.organisationId}) with owner ${email.toLowerCase()}.`);
  return 0;
}

async function ownerActor(db: Db, email: string): Promise<TActor> {
  const [row] = await db
    .select({ userId: users.id, organisationId: memberships.organisationId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(and(eq(users.email, email.toLowerCase()), eq(memberships.isOwner, true), isNull(users.deletedAt)));
  const actor = row ? await loadSessionActor(db, row) : null;
  if (!actor) throw new UsageError(`No owner with the email ${email}`);
  return actor;
}

/** The workspace `which` names, by slug or by name (case-insensitive); without `which`, the default one. */
async function namedWorkspace(db: Db, organisationId: string, which: string | undefined) {
  const rows = await db
    .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name, isDefault: workspaces.isDefault, isTest: workspaces.isTest })
    .from(workspaces)
    .where(eq(workspaces.organisationId, organisationId));
  if (which === undefined) return rows.find((w) => w.isDefault)!;
  const bySlug = rows.find((w) => w.slug === which);
  if (bySlug) return bySlug;
  const byName = rows.filter((w) => w.name.toLowerCase() === which.toLowerCase());
  if (byName.length === 1) return byName[0]!;
  throw new UsageError(byName.length > 1 ? `Several workspaces are named "${which}": give the slug` : `No workspace with the slug or name "${which}"`);
}

export async function createWorkspaceCommand(db: Db, opts: TOptions, io: TIo): Promise<number> {
  const actor = await ownerActor(db, required(opts, "owner"));
  const name = required(opts, "name");
  const test = opts.test === "true";
  const input = parseOrThrow(ZCreateWorkspace, { name, slug: opts.slug ?? slugFromName(name), test }, "input");
  const created = await createWorkspace(db, actor, input);
  io.err(`Created ${test ? "TEST " : ""}workspace "${created.name}" (slug ${created.slug}) in the owner's organisation.`);
  if (test) io.err("Its keys read fsk_test_…; its mail stays in the outbox; its seals are marked TEST and are not valid signatures.");
  io.out(created.id);
  return 0;
}

export async function createKeyCommand(db: Db, opts: TOptions, io: TIo): Promise<number> {
  const actor = await ownerActor(db, required(opts, "owner"));
  const roleName = required(opts, "role");
  const [role] = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(and(eq(roles.organisationId, actor.organisation.id), sql`lower(${roles.name}) = ${roleName.toLowerCase()}`));
  if (!role) throw new UsageError(`No role named "${roleName}" in the owner's organisation`);
  const workspace = await namedWorkspace(db, actor.organisation.id, opts.workspace);
  if (opts.tz && !opts.expires) throw new UsageError("--tz goes with --expires");
  // Without --tz the day ends in this machine's zone: the operator running the command is the "creator".
  const timeZone = opts.expires ? (opts.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone) : undefined;
  const input = parseOrThrow(
    ZCreateApiKey,
    { name: required(opts, "name"), roleId: role.id, workspaceId: workspace.id, expiresOn: opts.expires, timeZone },
    "input",
  );
  const key = await createApiKey(db, actor, input);
  const expiry = key.expiresAt ? `expires ${key.expiresAt.toISOString()} (end of ${opts.expires} in ${timeZone})` : "no expiry";
  const mode = workspace.isTest ? "test workspace" : "workspace";
  io.err(`Created key "${key.name}" (${key.prefix}…) as ${role.name} in ${mode} ${workspace.slug}, ${expiry}.`);
  io.err("The value below is shown once and cannot be read again:");
  io.out(key.value);
  return 0;
}

function onOff(opts: TOptions, name: string): boolean | undefined {
  const v = opts[name];
  if (v === undefined) return undefined;
  if (v === "on") return true;
  if (v === "off") return false;
  throw new UsageError(`--${name} takes on or off`);
}

function wholeOrUnlimited(opts: TOptions, name: string, min = 0): number | null | undefined {
  const value = opts[name];
  if (value === undefined) return undefined;
  if (value === "unlimited") return null;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} takes a whole number${min > 0 ? ` from ${min}` : ""} or unlimited`);
  }
  return Number(value);
}

async function targetOrganisation(db: Db, which: string | undefined): Promise<string> {
  const orgs = await db.select({ id: organisations.id, name: organisations.name }).from(organisations);
  const matches = which ? orgs.filter((o) => o.id === which || o.name === which) : orgs;
  if (matches.length === 1) return matches[0]!.id;
  if (orgs.length === 0) throw new UsageError("No organisation yet: run create-owner first");
  throw new UsageError(which ? `No single organisation matches "${which}"` : `There are ${orgs.length} organisations: choose one with --org <id or name>`);
}

function printPlan(plan: TPlan, io: TIo): void {
  const f = (b: boolean) => (b ? "on" : "off");
  io.out(`public API:    ${f(plan.features.publicApi)}`);
  io.out(`webhooks:      ${f(plan.features.webhooks)}`);
  io.out(`custom fields: ${f(plan.features.customFields)}`);
  io.out(`allowance:     ${plan.packageAllowance ?? "unlimited"} (used ${plan.packagesUsed})`);
  io.out(`templates:     ${plan.maxTemplates ?? "unlimited"}`);
  io.out(`recipients:    ${plan.maxRecipientsPerPackage ?? "unlimited"} per package`);
}

export async function setPlanCommand(db: Db, opts: TOptions, io: TIo): Promise<number> {
  const organisationId = await targetOrganisation(db, opts.org);
  const changes = parseOrThrow(
    ZSetPlan,
    {
      organisationId,
      publicApi: onOff(opts, "public-api"),
      webhooks: onOff(opts, "webhooks"),
      customFields: onOff(opts, "custom-fields"),
      packageAllowance: wholeOrUnlimited(opts, "allowance"),
      maxTemplates: wholeOrUnlimited(opts, "max-templates"),
      maxRecipientsPerPackage: wholeOrUnlimited(opts, "max-recipients", 1),
    },
    "input",
  );
  const changing = Object.entries(changes).some(([k, v]) => k !== "organisationId" && v !== undefined);
  printPlan(changing ? await setPlan(db, changes) : await readPlan(db, organisationId), io);
  return 0;
}

/**
 * A one-time link that sets a new password for the member with this email — the way back in for an owner who
 * lost theirs (no one else can issue them one). Prints the link's URL once on stdout; works once, within 24 hours
 * (an invitation's 7 days for a member who never set a password); the current password works until it is used.
 */
export async function resetPasswordCommand(db: Db, opts: TOptions, io: TIo): Promise<number> {
  const email = required(opts, "email").trim().toLowerCase();
  const link = await db.transaction(async (tx) => {
    const member = await lockLinkMember(tx, eq(users.email, email));
    if (!member) throw new UsageError(`No member with the email ${email}`);
    return insertPasswordLink(tx, OPERATOR, member);
  });
  io.out(`${env().publicUrl}${link.path}`);
  io.err(
    `One-time link for ${email}: it sets a new password, works once, until ${link.expiresAt.toISOString()}.` +
      (link.purpose === "reset" ? " The current password keeps working until the link is used; every session ends then." : ""),
  );
  return 0;
}

/**
 * Deletes a workspace of the owner's organisation with everything in it, by the app's rules (never the default
 * one; a live one only while it has never sent a package; docs/decisions/workspace-deletion.md), audited as the
 * owner. --workspace must be named: there is no default here. --check says what would go and deletes nothing.
 */
export async function deleteWorkspaceCommand(db: Db, opts: TOptions, io: TIo): Promise<number> {
  const actor = await ownerActor(db, required(opts, "owner"));
  const workspace = await namedWorkspace(db, actor.organisation.id, required(opts, "workspace"));
  const counts = ({ packages, templates, apiKeys, webhookEndpoints }: TDeletedWorkspace["deleted"]) =>
    `packages ${packages}, templates ${templates}, API keys ${apiKeys}, webhook endpoints ${webhookEndpoints}`;
  if (opts.check === "true") {
    const preview = await previewWorkspaceDeletion(db, actor, workspace.id);
    io.err(`Would delete workspace "${preview.name}" (${workspace.isTest ? "test" : "live"}) with ${counts(preview.deleted)}. Nothing deleted (--check).`);
    return 0;
  }
  const done = await deleteWorkspace(db, actor, workspace.id);
  io.err(`Deleted workspace "${done.name}" with ${counts(done.deleted)}. The audit trail keeps the record.`);
  io.out(done.id);
  return 0;
}

export const HELP = `Usage: npm run admin -- <command> [options]

  create-owner --email EMAIL --password PASSWORD --org ORGANISATION [--name NAME]
      First run: the owner, their organisation and its default workspace. Refused once an owner exists.

  create-workspace --owner EMAIL --name NAME [--slug SLUG] [--test]
      Creates a workspace in the owner's organisation and prints its id on stdout. The slug defaults to the
      name in lower case with hyphens. --test makes it a test workspace: its keys read fsk_test_…, no mail
      leaves the instance, no allowance is used, and its seals are marked TEST (not valid signatures).

  delete-workspace --owner EMAIL --workspace SLUG|NAME [--check]
      Deletes that workspace of the owner's organisation with everything in it, as the owner can in the app:
      a test workspace always, a live one only while it has never sent a package, never the default one.
      Prints its id on stdout. --check says what it holds and deletes nothing.

  create-key --owner EMAIL --name NAME --role ROLE [--workspace SLUG|NAME] [--expires YYYY-MM-DD [--tz ZONE]]
      Issues an API key as that owner and prints its value ONCE on stdout (details go to stderr), e.g.
      KEY=$(npm run -s admin -- create-key --owner me@example.com --name CI --role Admin)
      The role must hold API access. Without --workspace: the default workspace; a test workspace's key
      reads fsk_test_…. With --expires the key stops at the end of that day in --tz (an IANA zone such as
      Europe/London; default: this machine's).

  set-plan [--public-api on|off] [--webhooks on|off] [--custom-fields on|off] [--allowance N|unlimited]
           [--max-templates N|unlimited] [--max-recipients N|unlimited] [--org ID|NAME]
      Sets the plan's features, package allowance and limits (templates per organisation, recipients per
      package); without options, prints the current plan.
      --org is needed only when the instance holds several organisations.

  reset-password --email EMAIL
      Prints ONCE on stdout a one-time link that sets a new password for that member (the owner included: the
      way back in for a lost password). It works once, within 24 hours; the current password keeps working
      until it is used, and then every session of the member ends. Owners issue links to members in the app.

  backup --out FILE [--without-secrets]
      The embedded database (PGLITE_DIR: every package, audit trail and, with STORAGE=database, every file)
      and its secrets in one file, checked as it is written; never overwrites FILE. --without-secrets leaves
      ENCRYPTION_KEY and NEXTAUTH_SECRET out: keep them yourself. On PostgreSQL: use pg_dump (it says how).

  restore --from FILE [--check]
      Puts a backup back into an empty PGLITE_DIR (a database already there is never overwritten), after
      checking it: the manifest, every table's rows, and that ENCRYPTION_KEY decrypts its data. Writes the
      backup's secrets to DATA_DIR/secrets.json unless one exists (whose key must then be the backup's).
      --check runs every check in a scratch folder and installs nothing: test your backups while running.

  help
      This text.

With the embedded database (no DATABASE_URL) the command refuses to run while \`npm start\` uses the same
data directory: stop the server first. With PostgreSQL it can run at any time.`;
