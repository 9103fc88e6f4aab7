/**
 * Bearer key → the key's actor. Every refusal is the same 401 `Unauthorized`, whatever the cause, so a
 * caller learns nothing about which keys exist. The key's use is not recorded here: the pipeline records it
 * (recordKeyUse) only once every later check (workspace header, plan, IP, permission) has passed too.
 */
import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { loadKeyActor, type TKeyActor } from "@/server/domain/access/load-key-actor";
import { KEY_PREFIX } from "@/server/domain/keys/key-value";
import { errors } from "@/server/lib/errors";

export function bearerToken(req: Request): string {
  const header = req.headers.get("authorization");
  if (!header) throw errors.unauthorized();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  if (!token || !token.startsWith(KEY_PREFIX)) throw errors.unauthorized();
  return token;
}

export async function authenticate(db: Db, req: Request, base: Pick<TActor, "requestId" | "clientAddress">): Promise<TKeyActor> {
  const found = await loadKeyActor(db, bearerToken(req), base);
  if (!found) throw errors.unauthorized();
  return found;
}
