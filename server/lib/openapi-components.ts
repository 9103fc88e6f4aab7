/**
 * Extra OpenAPI components (schemas no operation references, e.g. webhook payloads). A module of its own,
 * with no imports, so operation modules can register at load time without an import cycle through openapi.ts.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";

export type TComponentAdder = (registry: OpenAPIRegistry) => void;

const KEY = Symbol.for("foliosign.openapi-components");
const slot = globalThis as Record<symbol, TComponentAdder[] | undefined>;

export function extraComponentAdders(): readonly TComponentAdder[] {
  return (slot[KEY] ??= []);
}

/** Lets a capability add schemas that no operation references (webhook payloads, for instance). */
export function addOpenApiComponents(adder: TComponentAdder): void {
  const list = (slot[KEY] ??= []);
  if (!list.includes(adder)) list.push(adder);
}
