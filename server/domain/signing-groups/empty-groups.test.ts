/**
 * Product audit item 3: a template role could be given a signing group with no members, and packages made from
 * it, so nobody in the group could sign. Protects: assigning an empty group to a role is 422 at
 * `signingGroupId` (add and change; a role keeps a group it already has); removing the last member of a group a
 * template role uses is 409 naming the roles (removing any other member, or the last of an unused group, is
 * fine); a blank package naming an empty group is 422 at `recipients.N.signingGroupId`; a template whose role's
 * group was emptied before these rules cannot make packages (422 at templateId). Every refusal writes nothing.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as removeMemberRoute } from "@/app/api/app/signing-groups/[groupId]/members/[memberId]/route";
import { POST as addMemberRoute } from "@/app/api/app/signing-groups/[groupId]/members/route";
import * as fromTemplate from "@/app/api/v1/packages/from-template/route";
import * as packagesRoute from "@/app/api/v1/packages/route";
import * as fieldsRoute from "@/app/api/v1/templates/[templateId]/fields/route";
import * as roleOne from "@/app/api/v1/templates/[templateId]/roles/[roleIndex]/route";
import * as rolesRoute from "@/app/api/v1/templates/[templateId]/roles/route";
import * as one from "@/app/api/v1/templates/[templateId]/route";
import * as list from "@/app/api/v1/templates/route";
import { auditEvents, packages, signingGroupMembers, templateRoles } from "@/server/db/schema";
import { EMPTY_GROUP_MESSAGE } from "@/server/domain/templates/assert-signing-group";
import { insertDocument, insertSigningGroup, templatesOrg } from "@/server/domain/templates/test-support/fixtures";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import type { TSigningGroup } from "./schemas";

const t = useTestDb();
type TData<T = Record<string, unknown>> = { data: T; error?: string; details?: Record<string, string[]> };

/** An ACTIVE template through the API: one PDF, roles Buyer and Seller, each with a required signature field. */
async function activeTemplate() {
  const { org, key } = await templatesOrg(t.db);
  const templateId = (await callJson<TData<{ id: string }>>(list.POST, { key, body: { name: "Sale" } })).body.data.id;
  const params = { templateId };
  const pdf = await insertDocument(t.db, org, templateId, { name: "sale.pdf" });
  for (const name of ["Buyer", "Seller"]) expect((await callJson(rolesRoute.POST, { key, params, body: { name } })).status).toBe(201);
  for (const roleIndex of [0, 1]) {
    const body = { documentId: pdf, roleIndex, type: "signature", page: 1, x: 50, y: 50 + 60 * roleIndex, width: 120, height: 40 };
    expect((await callJson(fieldsRoute.POST, { key, params, body })).status).toBe(201);
  }
  expect((await callJson(one.PATCH, { key, params, body: { status: "ACTIVE" } })).status).toBe(200);
  const owner = { userId: org.userId, organisationId: org.organisationId };
  return { org, key, params, templateId, owner };
}

const roles = (templateId: string) => t.db.select().from(templateRoles).where(eq(templateRoles.templateId, templateId)).orderBy(templateRoles.position);
const audit = () => t.db.select().from(auditEvents);

describe("signing groups with no members", () => {
  it("cannot be given to a template role (422 at signingGroupId), on add or change; nothing is written", async () => {
    const s = await activeTemplate();
    const empty = await insertSigningGroup(t.db, s.org, s.org.workspaceId, "Nobody", []);
    const rolesBefore = await roles(s.templateId);
    const auditBefore = await audit();

    const changed = await callJson<TData>(roleOne.PATCH, { key: s.key, params: { ...s.params, roleIndex: "1" }, body: { signingGroupId: empty } });
    expect([changed.status, changed.body.details]).toEqual([422, { signingGroupId: [EMPTY_GROUP_MESSAGE] }]);
    expect((await callJson(one.PATCH, { key: s.key, params: s.params, body: { status: "DRAFT" } })).status).toBe(200);
    const added = await callJson<TData>(rolesRoute.POST, { key: s.key, params: s.params, body: { name: "Witness", signingGroupId: empty } });
    expect([added.status, added.body.details]).toEqual([422, { signingGroupId: [EMPTY_GROUP_MESSAGE] }]);
    expect(await roles(s.templateId)).toEqual(rolesBefore);
    expect((await audit()).filter((a) => a.action.startsWith("template.role"))).toEqual(auditBefore.filter((a) => a.action.startsWith("template.role")));

    // With someone in it, the same group is accepted.
    const member = await callApp(addMemberRoute, { as: s.owner, params: { groupId: empty }, body: { email: "nina@example.com" } });
    expect(member.status).toBe(201);
    const ok = await callJson<TData<{ signingGroupId: string }>>(roleOne.PATCH, {
      key: s.key,
      params: { ...s.params, roleIndex: "1" },
      body: { signingGroupId: empty },
    });
    expect([ok.status, ok.body.data.signingGroupId]).toEqual([200, empty]);
  });

  it("keep their last member while a template role uses them (409 naming the roles); other removals are fine", async () => {
    const s = await activeTemplate();
    const group = await insertSigningGroup(t.db, s.org, s.org.workspaceId, "Sellers", ["sam@example.com", "sue@example.com"]);
    const unused = await insertSigningGroup(t.db, s.org, s.org.workspaceId, "Spare", ["solo@example.com"]);
    expect((await callJson(roleOne.PATCH, { key: s.key, params: { ...s.params, roleIndex: "1" }, body: { signingGroupId: group } })).status).toBe(200);
    const members = async (groupId: string) =>
      t.db.select().from(signingGroupMembers).where(eq(signingGroupMembers.groupId, groupId)).orderBy(signingGroupMembers.email);
    const [sam, sue] = await members(group);

    const first = await callApp<TData<TSigningGroup>>(removeMemberRoute, { as: s.owner, params: { groupId: group, memberId: sam!.id } });
    expect(first.status).toBe(200);
    const auditBefore = await audit();
    const last = await callApp<TData>(removeMemberRoute, { as: s.owner, params: { groupId: group, memberId: sue!.id } });
    expect(last).toEqual({
      status: 409,
      body: {
        error:
          "sue@example.com is the last member of “Sellers”, which template roles use (“Seller” in “Sale”): add another member first, or take the group off those roles",
      },
    });
    expect((await members(group)).map((m) => m.email)).toEqual(["sue@example.com"]);
    expect(await audit()).toHaveLength(auditBefore.length);

    // The last member of a group no role uses may go.
    const [solo] = await members(unused);
    expect((await callApp(removeMemberRoute, { as: s.owner, params: { groupId: unused, memberId: solo!.id } })).status).toBe(200);
    // Once the role no longer uses the group, its last member may go too.
    expect((await callJson(roleOne.PATCH, { key: s.key, params: { ...s.params, roleIndex: "1" }, body: { signingGroupId: null } })).status).toBe(200);
    expect((await callApp(removeMemberRoute, { as: s.owner, params: { groupId: group, memberId: sue!.id } })).status).toBe(200);
  });

  it("cannot be named by a blank package's recipient (422 at recipients.N.signingGroupId); nothing is written", async () => {
    const { org, key } = await templatesOrg(t.db);
    const empty = await insertSigningGroup(t.db, org, org.workspaceId, "Nobody", []);
    const full = await insertSigningGroup(t.db, org, org.workspaceId, "Somebody");
    const body = {
      title: "Loan",
      recipients: [
        { email: "ann@example.com", signingGroupId: full },
        { email: "bob@example.com", signingGroupId: empty },
      ],
    };
    const refused = await callJson<TData>(packagesRoute.POST, { key, body });
    expect([refused.status, refused.body.details]).toEqual([422, { "recipients.1.signingGroupId": [EMPTY_GROUP_MESSAGE] }]);
    expect(await t.db.select().from(packages)).toEqual([]);
    const made = await callJson(packagesRoute.POST, { key, body: { ...body, recipients: [body.recipients[0]] } });
    expect(made.status).toBe(201);
  });

  it("stop a template whose role's group was emptied before the rules from making packages (422 at templateId)", async () => {
    const s = await activeTemplate();
    const group = await insertSigningGroup(t.db, s.org, s.org.workspaceId, "Sellers");
    expect((await callJson(roleOne.PATCH, { key: s.key, params: { ...s.params, roleIndex: "1" }, body: { signingGroupId: group } })).status).toBe(200);
    // As an installation upgraded with such a group would have it.
    await t.db.delete(signingGroupMembers).where(eq(signingGroupMembers.groupId, group));
    // Renaming the role, sending its group again, is not refused for the group it already has.
    const renamed = await callJson(roleOne.PATCH, { key: s.key, params: { ...s.params, roleIndex: "1" }, body: { name: "Vendor", signingGroupId: group } });
    expect(renamed.status).toBe(200);
    const recipients = [
      { email: "buyer@example.com", roleIndex: 0 },
      { email: "seller@example.com", roleIndex: 1 },
    ];
    const refused = await callJson<TData>(fromTemplate.POST, { key: s.key, body: { templateId: s.templateId, title: "Sale", recipients } });
    expect([refused.status, refused.body.details]).toEqual([
      422,
      {
        templateId: ["The template cannot make packages until it is set back to Draft and fixed: Give the role “Vendor” a signing group with members, or none"],
      },
    ]);
    expect(await t.db.select().from(packages)).toEqual([]);
    await callApp(addMemberRoute, { as: s.owner, params: { groupId: group }, body: { email: "vera@example.com" } });
    expect((await callJson(fromTemplate.POST, { key: s.key, body: { templateId: s.templateId, title: "Sale", recipients } })).status).toBe(201);
  });
});
