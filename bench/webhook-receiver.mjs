/**
 * The benchmark's receiver, in its own process (forked by bench/webhooks.ts) so that its CPU does not share
 * the worker's event loop — nor the ceiling loop's: both phases POST to this same process. A node:http server
 * on 127.0.0.1 (port 0) answering 200 "ok" at once. Talks to the parent over IPC:
 * - → { type: "ready", port } once listening;
 * - → { type: "arrived", id, t } for requests under /latency (t: epoch ms, high resolution, when the whole
 *   request had arrived);
 * - ← { type: "wait", total, ref } → { type: "reached", ref } once `total` requests have arrived in all;
 * - ← { type: "count", ref } → { type: "count", ref, received }.
 * - ← { type: "track", ref } → { type: "tracking", ref }: from now on, count each delivery id (the
 *   x-foliosign-delivery-id header) and note each path's first and last arrival (bench/peers.ts);
 * - ← { type: "mark" } (no answer): the moment the workers are told to go; `stats` gives arrivals after it;
 * - ← { type: "stats", ref } → { type: "stats", ref, received, distinct, duplicates, firstByPath, lastByPath,
 *   maxInFlightByPath, markAt }.
 * BENCH_SLOW_PATH and BENCH_SLOW_MS (bench/peers.ts): requests to that path are answered 200 only after that
 * many milliseconds — a slow receiver on one endpoint. While tracking, the most requests each path had open at
 * once (arrived and not yet answered, or still arriving) is kept.
 */
import http from "node:http";

const slowPath = process.env.BENCH_SLOW_PATH;
const slowMs = Number(process.env.BENCH_SLOW_MS ?? 0);
let received = 0;
const waits = [];
/**
 * While tracking (bench/peers.ts): arrivals per delivery id, first and last arrival per path, the requests open
 * per path now and at most.
 */
let tracked = null;
const server = http.createServer((req, res) => {
  const open = tracked;
  if (open) {
    const n = (open.inFlight[req.url] ?? 0) + 1;
    open.inFlight[req.url] = n;
    if (n > (open.maxInFlightByPath[req.url] ?? 0)) open.maxInFlightByPath[req.url] = n;
    res.on("close", () => (open.inFlight[req.url] -= 1));
  }
  req.resume();
  req.on("end", () => {
    received += 1;
    if (tracked) {
      const id = req.headers["x-foliosign-delivery-id"];
      const seen = tracked.ids.get(id) ?? 0;
      tracked.ids.set(id, seen + 1);
      if (seen > 0) tracked.duplicates += 1;
      const t = performance.now();
      tracked.firstByPath[req.url] ??= t;
      tracked.lastByPath[req.url] = t;
    }
    const answer = () => res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    if (slowMs > 0 && req.url === slowPath) setTimeout(answer, slowMs);
    else answer();
    if (req.url?.startsWith("/hook/latency")) {
      process.send?.({ type: "arrived", id: req.headers["x-foliosign-delivery-id"], t: performance.timeOrigin + performance.now() });
    }
    for (let i = waits.length - 1; i >= 0; i--) {
      if (received >= waits[i].total) {
        process.send?.({ type: "reached", ref: waits[i].ref });
        waits.splice(i, 1);
      }
    }
  });
});
server.keepAliveTimeout = 10_000;
process.on("message", (msg) => {
  if (msg.type === "wait") {
    if (received >= msg.total) process.send?.({ type: "reached", ref: msg.ref });
    else waits.push(msg);
  } else if (msg.type === "track") {
    tracked = { ids: new Map(), duplicates: 0, firstByPath: {}, lastByPath: {}, inFlight: {}, maxInFlightByPath: {}, markAt: null };
    process.send?.({ type: "tracking", ref: msg.ref });
  } else if (msg.type === "mark") {
    if (tracked) tracked.markAt = performance.now();
  } else if (msg.type === "stats") {
    process.send?.({
      type: "stats",
      ref: msg.ref,
      received,
      distinct: tracked?.ids.size ?? 0,
      duplicates: tracked?.duplicates ?? 0,
      firstByPath: tracked?.firstByPath ?? {},
      lastByPath: tracked?.lastByPath ?? {},
      maxInFlightByPath: tracked?.maxInFlightByPath ?? {},
      markAt: tracked?.markAt ?? null,
    });
  } else if (msg.type === "count") {
    process.send?.({ type: "count", ref: msg.ref, received });
  }
});
process.on("disconnect", () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
server.listen(0, "127.0.0.1", () => process.send?.({ type: "ready", port: server.address().port }));
