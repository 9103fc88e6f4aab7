/**
 * The cross-workspace helper must fail a route that leaks another workspace's resource and pass one that
 * scopes its query by the key's workspace; otherwise every later issue's tenancy test would prove nothing.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "@/server/db/schema";
import { apiRoute } from "@/server/http/api-route";
import { errors } from "@/server/lib/errors";
import { defineOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";
import { expectOtherWorkspaceGets404 } from "./cross-workspace";
import { useTestDb } from "./db";
import { createTestKey, createTestOrg } from "./factories";

const t = useTestDb();

const op = defineOperation({
  operationId: "testGetKey",
  method: "GET",
  path: "/api/v1/test/keys/{keyId}",
  summary: "t",
  tag: "Test",
  params: z.object({ keyId: z.string() }),
  response: z.object({ id: z.string() }),
  errors: [404],
});

const scoped = apiRoute(op, async ({ db, actor, params }) => {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, params.keyId), eq(apiKeys.workspaceId, actor.workspace.id)));
  if (!row) throw errors.notFound("Key");
  return row;
});

const leaky = apiRoute(op, async ({ db, actor, params }) => {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, params.keyId), eq(apiKeys.organisationId, actor.organisation.id)));
  if (!row) throw errors.notFound("Key");
  return row;
});

describe("expectOtherWorkspaceGets404", () => {
  it("passes for a route that filters by the key's workspace", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await expectOtherWorkspaceGets404(t.db, scoped, { org, params: { keyId: key.id }, ownKey: key.value });
  });

  it("fails for a route that widens to the organisation", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await expect(expectOtherWorkspaceGets404(t.db, leaky, { org, params: { keyId: key.id } })).rejects.toThrow(
      /another workspace of the same organisation got 200/,
    );
  });

  it("fails when the control shows the resource does not exist at all", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await expect(expectOtherWorkspaceGets404(t.db, scoped, { org, params: { keyId: "key_missing" }, ownKey: key.value })).rejects.toThrow(/control/);
  });
});
