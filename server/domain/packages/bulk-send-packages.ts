import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplate } from "@/server/domain/templates/find-template";
import { AppError, errors } from "@/server/lib/errors";
import { logger } from "@/server/lib/logger";
import { RefusedItem } from "@/server/lib/parse";
import { createPackageFromTemplate } from "./create-package-from-template";
import type { TBulkSend } from "./schemas";

type TResult = { index: number; packageId?: string; status: "sent" | "existing" | "failed"; error?: string; details?: Record<string, string[]> };

function failed(index: number, err: AppError): TResult {
  return { index, status: "failed", error: err.message, ...(err.details ? { details: err.details } : {}) };
}

/**
 * Creates and sends one package per item from one template, each item in its own transaction (a refused item
 * leaves nothing behind and does not stop the others); each sent item consumes one package of the allowance. An
 * item whose own fields its schema refused arrives as a RefusedItem and fails the same way, with the same details.
 * Items run one after the other so the allowance runs out at a predictable item. An unexpected error in one
 * item is logged and reported as `failed` with "Internal error"; it does not abort the others.
 */
export async function bulkSendPackages(db: Db, actor: TActor, input: TBulkSend): Promise<{ results: TResult[] }> {
  const template = await findTemplate(db, actor, input.templateId);
  const results: TResult[] = [];
  for (const [index, item] of input.items.entries()) {
    // An item its own schema refused (checked at the boundary, item by item) fails as the domain's refusals do.
    if (item instanceof RefusedItem) {
      results.push(failed(index, errors.validation(item.details)));
      continue;
    }
    try {
      const { created, package: pkg } = await createPackageFromTemplate(db, actor, {
        templateId: template.id,
        title: item.title ?? template.name,
        recipients: item.recipients,
        externalId: item.externalId,
        metadata: item.metadata,
        mergeFields: item.mergeFields,
        answers: input.answers,
        status: "sent",
      });
      results.push({ index, packageId: pkg.id, status: created ? "sent" : "existing" });
    } catch (err) {
      if (err instanceof AppError) {
        results.push(failed(index, err));
        continue;
      }
      // An unexpected error rolled back this item only: logged in full, reported without internals, and the
      // other items still go out.
      logger().error({ err, templateId: template.id, index }, "bulk send: an item failed unexpectedly");
      results.push({ index, status: "failed", error: "Internal error" });
    }
  }
  return { results };
}
