/**
 * What a route does before its domain function: the input parsed by the operation's schema (a 422 with
 * dotted-path details when it fails). Domain functions take parsed input only (`(db, actor, input)`, parsed
 * once at the boundary); tests that call them directly with raw input go through this, as the route would.
 */
import type { Db } from "@/server/db/client";
import { parseOrThrow } from "@/server/lib/parse";
import type { z } from "@/server/lib/zod";

export function viaBoundary<S extends z.ZodType, A, R>(schema: S, fn: (db: Db, actor: A, input: z.output<S>) => Promise<R>) {
  return async (db: Db, actor: A, input: z.input<S>): Promise<R> => fn(db, actor, parseOrThrow(schema, input, "input"));
}

/** The same for a domain function without an actor (first-run setup, the operator's plan). */
export function viaBoundaryNoActor<S extends z.ZodType, R>(schema: S, fn: (db: Db, input: z.output<S>) => Promise<R>) {
  return async (db: Db, input: z.input<S>): Promise<R> => fn(db, parseOrThrow(schema, input, "input"));
}
