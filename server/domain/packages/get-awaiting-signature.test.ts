/**
 * The overview's "awaiting signature" (issue 13): it counts the in-progress and on-hold packages the member can
 * see — another member's package stays invisible without canViewAllPackages — and lists the recent ones with
 * their signers' progress.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { packages } from "@/server/db/schema";
import { createTestMember, ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { createPackageFromTemplate } from "./create-package-from-template";
import { getAwaitingSignature } from "./get-awaiting-signature";
import { createActiveTemplate } from "./test-support/fixtures";

const t = useTestDb();

const recipients = [
  { email: "tenant@example.com", name: "Tenant", roleIndex: 0 },
  { email: "landlord@example.com", name: "Landlord", roleIndex: 1 },
];

describe("getAwaitingSignature", () => {
  it("counts and lists the visible packages out for signing, with their progress", async () => {
    const org = await createTestOrg(t.db);
    const owner = ownerActor(org);
    const { templateId } = await createActiveTemplate(t.db, org);
    const sent = await createPackageFromTemplate(t.db, owner, { templateId, title: "Sent lease", recipients, status: "sent" });
    const held = await createPackageFromTemplate(t.db, owner, { templateId, title: "Held lease", recipients, status: "sent" });
    await t.db.update(packages).set({ status: "ON_HOLD" }).where(eq(packages.id, held.package.id));
    await createPackageFromTemplate(t.db, owner, { templateId, title: "Draft lease", recipients });

    const seen = await getAwaitingSignature(t.db, owner);
    expect(seen).toMatchObject({ inProgress: 1, onHold: 1 });
    expect(seen.recent).toEqual([expect.objectContaining({ id: sent.package.id, title: "Sent lease", signers: 2, signed: 0 })]);

    // A member whose role cannot view all packages sees none of the owner's.
    const viewer = await createTestMember(t.db, org, org.roleIds.viewer);
    expect(await getAwaitingSignature(t.db, viewer)).toEqual({ inProgress: 0, onHold: 0, recent: [] });
  });
});
