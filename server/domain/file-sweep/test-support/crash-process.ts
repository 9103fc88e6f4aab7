/**
 * The process the crash test kills (crash-leftovers.test.ts). It opens the test's database — PostgreSQL
 * (`postgres:<url>`) or a PGlite data directory (`pglite:<dir>`), argv[2] — and the file store the environment
 * configures (STORAGE=s3 and S3_* for the bucket, else the database), then, at the same time:
 * - receives an upload through the real domain function (`receiveUpload`, as PUT /uploads/{token} does) whose
 *   body sends `stallAfter` bytes and then never sends the rest;
 * - seals the due package with the real sealing job (`sealDuePackages`), its store made to hang right after
 *   the last sealed file is stored, i.e. before the fenced commit that would name those files.
 * It says where it got to as JSON lines on stdout ({"msg":"upload stalled"}, {"msg":"seal stalled"}) and waits
 * to be killed. argv[3] is JSON: { token, stallAfter }.
 */
import { openPglite, openPostgres, setDbHandle } from "@/server/db/client";
import { receiveUpload } from "@/server/domain/documents/receive-upload";
import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import { getFileStore, setFileStore } from "@/server/storage/get-file-store";
import type { TFileStore } from "@/server/storage/file-store";
import { testBytes } from "@/server/storage/file-store-contract";

const say = (msg: string, extra: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ msg, ...extra })}\n`);
const never = () => new Promise<never>(() => {});

async function main(): Promise<void> {
  const [kind, ...rest] = process.argv[2]!.split(":");
  const where = rest.join(":");
  const handle = kind === "postgres" ? await openPostgres(where, { max: 4 }) : await openPglite({ dataDir: where });
  setDbHandle(handle);
  const { token, stallAfter } = JSON.parse(process.argv[3]!) as { token: string; stallAfter: number };

  const real = await getFileStore();
  const hanging: TFileStore = {
    ...real,
    async put(key, body, options) {
      const stored = await real.put(key, body, options);
      if (key.startsWith("sealed/") && key.includes("/certificate-")) {
        say("seal stalled", { key });
        return never();
      }
      return stored;
    },
  };
  setFileStore(hanging);

  async function* body(): AsyncGenerator<Uint8Array> {
    const piece = 64 * 1024;
    for (let sent = 0; sent < stallAfter; sent += piece) yield testBytes(piece, 1 + sent / piece);
    // Asked for more: every piece so far has been taken by the store (and its chunks written).
    say("upload stalled", { sent: stallAfter });
    await never();
  }
  // The generator itself, not a Readable (which would read ahead): when it is asked for more, all it gave is stored.
  void receiveUpload(handle.db, { token, body: body() }).catch((err: unknown) => say("upload failed", { error: String(err) }));
  void sealDuePackages(handle.db).then(
    (runs) => say("seal finished", { runs }),
    (err: unknown) => say("seal failed", { error: String(err) }),
  );
  say("started");
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
