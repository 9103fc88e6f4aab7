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
 * The hashed text without its first element (the previous hash): `[previousHash,` + this. The append computes
 * the hash in the database from this and the chain head it reads in the same statement (record-audit.ts).
 */
export function auditEventHashTail(event: TAuditHashed): string {
  const data = canonical(JSON.parse(JSON.stringify(event.data ?? {})));
  return JSON.stringify([event.action, event.actorUserId, event.apiKeyId, event.clientAddress, data, event.createdAt.toISOString()]).slice(1);
}

/**
 * SHA-256 (hex) over the previous event's hash and this event's canonical content: action, actor, API key,
 * client address, data (as stored: a JSON round trip drops what jsonb drops, then sorted keys) and createdAt
 * (ISO, milliseconds). The same function checks the chain (verify-audit-chain.ts). The text hashed is
 * `JSON.stringify([previousHash, action, actorUserId, apiKeyId, clientAddress, data, createdAt])`.
 */
export function auditEventHash(previousHash: string | null, event: TAuditHashed): string {
  return sha256Hex(`[${JSON.stringify(previousHash)},${auditEventHashTail(event)}`);
}
