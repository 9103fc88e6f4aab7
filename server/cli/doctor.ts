/**
 * `npm run doctor`: the readiness check (server/domain/readiness) from the command line. Opens the configured
 * database as it is, without migrating it (that is one of the things it reports), runs every check, prints the
 * report (`--json`: the redacted report as JSON, to paste into an issue) and exits 1 when any check failed.
 * `--send-test-to EMAIL` also sends one real message through SMTP_URL. On the embedded database a running
 * `npm start` holds the directory: the database check then says so (use the Readiness page instead).
 */
import { parseArgs } from "node:util";
import { loadConfig, lockPgliteDir } from "../boot";
import { closeDb, openPglite, openPostgres, setDbHandle, type DbHandle } from "../db/client";
import { exitWith } from "./exit-with";
import { runDoctor } from "./run-doctor";

async function open(): Promise<{ handle: DbHandle | null; error?: string }> {
  const e = loadConfig();
  try {
    if (!e.DATABASE_URL) lockPgliteDir(e.pgliteDir);
    const handle = e.DATABASE_URL ? await openPostgres(e.DATABASE_URL, { max: 2 }) : await openPglite({ dataDir: e.pgliteDir });
    setDbHandle(handle);
    return { handle };
  } catch (err) {
    return { handle: null, error: (err as Error).message };
  }
}

async function main(): Promise<number> {
  let values: { json?: boolean; "send-test-to"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { json: { type: "boolean" }, "send-test-to": { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}. Usage: npm run doctor [-- --json] [-- --send-test-to EMAIL]`);
    return 2;
  }
  if (values.help) {
    console.log(
      "Usage: npm run doctor [-- --json] [--send-test-to EMAIL]\nChecks the database, PUBLIC_URL, SMTP, the sealing identity, the time-stamping authorities, storage and webhook egress.",
    );
    return 0;
  }
  const { handle, error } = await open();
  try {
    return await runDoctor(handle?.db ?? null, error, { json: values.json ?? false, sendTestTo: values["send-test-to"] }, (line) => console.log(line));
  } finally {
    await closeDb();
  }
}

exitWith(main);
