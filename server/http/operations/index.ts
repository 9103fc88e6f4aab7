/** Every operation of /api/v1. The OpenAPI document, the 404/405 table and the route-coverage test read this list. */
import type { TOperation } from "../operation";
import * as account from "./account";
import * as webhooks from "./webhooks";

const isOperation = (v: unknown): v is TOperation =>
  typeof v === "object" && v !== null && "operationId" in v && "path" in v && "method" in v;

export const allOperations: TOperation[] = [account, webhooks].flatMap((mod) =>
  Object.values(mod as Record<string, unknown>).filter(isOperation),
);
