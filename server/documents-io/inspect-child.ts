/**
 * The inspector's child process: started by `inspectInChild` (inspect-in-child.ts) with `node --import tsx`,
 * one per inspection. It announces itself (`ready`: its modules loaded, so a failure after this point is the
 * file's doing, not a broken installation), receives one request over IPC, runs `inspectFile` on the temporary
 * file, answers, and exits. Whatever the file does to the parser — throw, loop, exhaust the heap — happens in
 * this process; the parent kills it on its time limit and the server process is untouched.
 */
import { AppError } from "@/server/lib/errors";
import { inspectFile, type TInspectedFile } from "./inspect-file";

export type TInspectRequest = { path: string; maxBytes: number; maxPages?: number };
export type TInspectReply =
  | { type: "ready" }
  | { type: "result"; result: TInspectedFile; maxRssBytes: number }
  | { type: "refused"; kind: AppError["kind"]; message: string }
  | { type: "failed"; message: string };

function reply(message: TInspectReply, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}

// The parent went away (server stopped, or it gave up on us): nothing left to answer.
process.on("disconnect", () => process.exit(0));

process.once("message", (request: TInspectRequest) => {
  inspectFile(request.path, { maxBytes: request.maxBytes, maxPages: request.maxPages }).then(
    (result) => reply({ type: "result", result, maxRssBytes: process.resourceUsage().maxRSS * 1024 }, () => process.exit(0)),
    (error: unknown) => {
      const message: TInspectReply =
        error instanceof AppError
          ? { type: "refused", kind: error.kind, message: error.message }
          : { type: "failed", message: error instanceof Error ? error.message : String(error) };
      reply(message, () => process.exit(0));
    },
  );
});

reply({ type: "ready" });
