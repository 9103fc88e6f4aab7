/** The machine line the benches print first: cores and their model, Node, and the load average now. */
import os from "node:os";

export function machineLine(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  return `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}; load average ${load}`;
}
