/**
 * The benchmark's receiver, in its own process (forked by bench/webhooks.ts) so that its CPU does not share
 * the worker's event loop — nor the ceiling loop's: both phases POST to this same process. A node:http server
 * on 127.0.0.1 (port 0) answering 200 "ok" at once. Talks to the parent over IPC:
 * - → { type: "ready", port } once listening;
 * - → { type: "arrived", id, t } for requests under /latency (t: epoch ms, high resolution, when the whole
 *   request had arrived);
 * - ← { type: "wait", total, ref } → { type: "reached", ref } once `total` requests have arrived in all;
 * - ← { type: "count", ref } → { type: "count", ref, received }.
 */
import http from "node:http";

let received = 0;
const waits = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received += 1;
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
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
