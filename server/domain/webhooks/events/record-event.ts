/**
 * The outbox. In the caller's transaction: validates the payload against the catalogue, gives it the next
 * per-package `sequence`, serialises the envelope ONCE (every attempt signs these exact bytes), stores the
 * event and one PENDING delivery per subscribed, enabled, non-Failing endpoint of the workspace. Nothing is
 * sent here and nothing is notified: see server/domain/transaction.ts (withEvents) for the wake-up after commit,
 * which this tells how many deliveries it inserted (`noteDeliveries`).
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { newId, sqlNewId } from "@/server/lib/ids";
import { receivesEventsSql } from "@/server/domain/webhooks/health/failing";
import { EVENT_DATA, type TEnvelope, type TEventData, type TEventName } from "./event-catalogue";
import { queryPrepared } from "@/server/db/driver";
import { noteDeliveries } from "@/server/domain/transaction";

export type TRecordEventInput<E extends TEventName> = {
  organisationId: string;
  workspaceId: string;
  event: E;
  data: TEventData<E>;
  /** A sample from "Send test event": `test: true`, no sequence, delivered only to `endpointId`. */
  test?: { endpointId: string };
};

export type TRecordedEvent = { eventId: string; sequence: number | null; deliveryIds: string[] };

// The outbox's statements are prepared (queryPrepared, server's default plans): in a 100-endpoint fan-out each
// unprepared statement cost a second round trip for postgres.js to learn its parameter types.
const PREPARED = { genericPlans: false } as const;

export async function recordEvent<E extends TEventName>(tx: Db, input: TRecordEventInput<E>): Promise<TRecordedEvent> {
  // A payload that does not match the catalogue is a bug in the caller: throwing rolls its change back.
  const data = EVENT_DATA[input.event].parse(input.data) as Record<string, unknown> & { packageId: string };
  const at = now();
  const atIso = at.toISOString();
  const eventId = newId("whe");

  // One INSERT … SELECT fans out to every target endpoint (100 endpoints stay one statement, no 800 parameters);
  // the ids are therefore made in SQL (sqlNewId: the same format as newId, made by PostgreSQL). The deliveries'
  // endpoint, event and queue rows are not foreign keys (a check query per row, three per delivery): they hold
  // by construction here. Each endpoint is taken FOR KEY SHARE, the lock a key's check took: a deletion of it
  // waits for this transaction (and its trigger then deletes these deliveries too), and an endpoint deleted by
  // a transaction that commits first is skipped, not fanned out to (schema/webhooks.ts, migration 0030).
  const target = input.test
    ? sql`e.workspace_id = ${input.workspaceId} and e.id = ${input.test.endpointId}`
    : sql`e.workspace_id = ${input.workspaceId} and ${receivesEventsSql}
          and e.events @> ${JSON.stringify([input.event])}::jsonb`;
  const deliveries = sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts, next_attempt_at, created_at, updated_at)
        select ${sqlNewId("whd")}, ${eventId}, e.id, ${input.event}, 'PENDING', 0,
               ${atIso}::timestamptz, ${atIso}::timestamptz, ${atIso}::timestamptz
        from webhook_endpoints e where ${target}
        for key share of e
        returning id, endpoint_id`;
  // Each delivery's narrow queue row, in the same statement (from the deliveries it inserted: none without its delivery).
  const queueRows = sql`insert into webhook_queue (delivery_id, endpoint_id, event_id, event, next_attempt_at, attempts)
        select id, endpoint_id, ${eventId}, ${input.event}, ${atIso}::timestamptz, 0 from del
        returning 1`;
  const columns = sql`insert into webhook_events (id, organisation_id, workspace_id, event, package_id, sequence, test, payload, body, created_at)`;

  if (input.test) {
    // A sample: no sequence, the envelope serialised here.
    const envelope: TEnvelope = { event: input.event, timestamp: atIso, data, test: true as const };
    const body = JSON.stringify(envelope);
    const [row] = await queryPrepared<{ delivery_ids: string[] }>(
      tx,
      sql`with ev as (${columns} values (${eventId}, ${input.organisationId}, ${input.workspaceId}, ${input.event}, ${data.packageId},
                        null, true, ${body}::jsonb, ${body}, ${atIso}::timestamptz) returning id),
               del as (${deliveries}),
               queued as (${queueRows})
          select coalesce((select array_agg(id) from del), '{}')::text[] as delivery_ids`,
      PREPARED,
    );
    noteDeliveries(row!.delivery_ids.length);
    return { eventId, sequence: null, deliveryIds: row!.delivery_ids };
  }

  // The envelope {event, timestamp, sequence, data} is serialised once, exactly as JSON.stringify would write it,
  // around the sequence, which PostgreSQL takes from the package's counter in the same statement (an integer's
  // JSON is its decimal text). One statement, one round trip: the sequence (the upsert locks the package's
  // counter row until commit, as before), the event and its deliveries (which name the event this statement
  // inserts: none without its event).
  // A test workspace's event carries `"test": true` after `data` (as JSON.stringify writes {…, data, test}); the
  // workspace's mode is read in the same statement (`w`), so no caller passes it.
  const head = JSON.stringify({ event: input.event, timestamp: atIso });
  const prefix = `${head.slice(0, -1)},"sequence":`;
  const suffix = `,"data":${JSON.stringify(data)}}`;
  const testSuffix = `${suffix.slice(0, -1)},"test":true}`;
  const tail = sql`(case when w.is_test then ${testSuffix}::text else ${suffix}::text end)`;
  const [row] = await queryPrepared<{ sequence: number; delivery_ids: string[] }>(
    tx,
    sql`with seq as (insert into package_event_sequences (package_id, last_sequence) values (${data.packageId}, 1)
                     on conflict (package_id) do update set last_sequence = package_event_sequences.last_sequence + 1
                     returning last_sequence as value),
             ev as (${columns}
                    select ${eventId}, ${input.organisationId}, ${input.workspaceId}, ${input.event}, ${data.packageId}, seq.value,
                           false, (${prefix}::text || seq.value::text || ${tail})::jsonb,
                           ${prefix}::text || seq.value::text || ${tail}, ${atIso}::timestamptz
                    from seq, (select coalesce(bool_or(is_test), false) as is_test from workspaces where id = ${input.workspaceId}) w
                    returning id),
             del as (${deliveries}),
             queued as (${queueRows})
        select (select value from seq) as sequence, coalesce((select array_agg(id) from del), '{}')::text[] as delivery_ids`,
    PREPARED,
  );
  noteDeliveries(row!.delivery_ids.length);
  return { eventId, sequence: row!.sequence, deliveryIds: row!.delivery_ids };
}
