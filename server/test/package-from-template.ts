/**
 * A package from a template through the API — `POST /api/v1/packages/from-template`, its 201 checked — for the
 * tests that need a real one (fields and sessions copied as the app copies them). Two recipients, one for each
 * role of createActiveTemplate's template, unless the test names its own.
 */
import type { z } from "zod";
import { expect } from "vitest";
import { POST as createFromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import type { TPackage, ZCreateFromTemplate } from "@/server/domain/packages/schemas";
import { callJson } from "@/server/test/http";

type TFromTemplate = z.input<typeof ZCreateFromTemplate>;

export const TWO_RECIPIENTS: TFromTemplate["recipients"] = [
  { email: "tina@example.com", name: "Tina Tenant", roleIndex: 0 },
  { email: "lars@example.com", name: "Lars Landlord", roleIndex: 1 },
];

export async function packageFromTemplate(
  key: string,
  body: Omit<TFromTemplate, "recipients"> & Partial<Pick<TFromTemplate, "recipients">>,
): Promise<TPackage> {
  const res = await callJson<{ data: TPackage; error?: string }>(createFromTemplateRoute, { key, body: { recipients: TWO_RECIPIENTS, ...body } });
  expect(res.status, res.body.error).toBe(201);
  return res.body.data;
}
