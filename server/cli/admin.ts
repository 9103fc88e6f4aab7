/**
 * `npm run admin -- <command>`: the operator's command line (see `help`). Opens the configured database the
 * way the server does (server/boot.ts: .env, secrets, migrations, and the PGlite directory lock, which makes
 * it refuse while `npm start` runs on the same embedded database), runs one command, closes the database.
 * `backup` and `restore` (backup.ts) instead get where the installation is, and never generate secrets.
 */
import { DatabaseInUseError, loadConfig, openDatabase } from "../boot";
import { closeDb } from "../db/client";
import { exitWith } from "./exit-with";
import { installationOf } from "./backup-archive";
import { runAdmin } from "./run-admin";

async function main(): Promise<number> {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  try {
    return await runAdmin(
      process.argv.slice(2),
      async () => {
        loadConfig();
        return (await openDatabase()).db;
      },
      io,
      () => installationOf(loadConfig({ generateSecrets: false })),
    );
  } catch (err) {
    if (err instanceof DatabaseInUseError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await closeDb();
  }
}

exitWith(main);
