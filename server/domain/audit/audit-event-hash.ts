import { sha256Hex } from "@/server/lib/crypto";

export type TAuditHashed = {
  action: string;
  actorUserId: string | null;
  apiKeyId: string | null;
  clientAddress: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
};

/** Keys sorted at every level: jsonb gives keys back in its own order, the hash must not depend on it. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * SHA-256 (hex) over the previous event's hash and this event's canonical content: action, actor, API key,
 * client address, data (as stored: a JSON round trip drops what jsonb drops, then sorted keys) and createdAt
 * (ISO, milliseconds). The same function checks the chain (verify-audit-chain.ts).
 */
export function auditEventHash(previousHash: string | null, event: TAuditHashed): string {
  const data = canonical(JSON.parse(JSON.stringify(event.data ?? {})));
  return sha256Hex(JSON.stringify([previousHash, event.action, event.actorUserId, event.apiKeyId, event.clientAddress, data, event.createdAt.toISOString()]));
}
