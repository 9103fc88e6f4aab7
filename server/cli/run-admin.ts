/** Parses the command line and runs one command; the process shell (admin.ts) only opens and closes the DB. */
import { parseArgs } from "node:util";
import type { Db } from "@/server/db/client";
import { z } from "zod";
import { AppError, errors } from "@/server/lib/errors";
import { issuesToDetails } from "@/server/lib/parse";
import { backupCommand, restoreCommand } from "./backup";
import type { TInstallation } from "./backup-archive";
import {
  createKeyCommand,
  createOwnerCommand,
  createWorkspaceCommand,
  deleteWorkspaceCommand,
  HELP,
  resetPasswordCommand,
  setPlanCommand,
  UsageError,
  type TIo,
  type TOptions,
} from "./commands";

const OPTIONS = {
  email: { type: "string" },
  password: { type: "string" },
  org: { type: "string" },
  name: { type: "string" },
  owner: { type: "string" },
  role: { type: "string" },
  workspace: { type: "string" },
  slug: { type: "string" },
  test: { type: "boolean" },
  expires: { type: "string" },
  tz: { type: "string" },
  "public-api": { type: "string" },
  webhooks: { type: "string" },
  "custom-fields": { type: "string" },
  allowance: { type: "string" },
  "max-templates": { type: "string" },
  "max-recipients": { type: "string" },
  out: { type: "string" },
  from: { type: "string" },
  "without-secrets": { type: "boolean" },
  check: { type: "boolean" },
} as const;

const COMMANDS: Record<string, (db: Db, opts: TOptions, io: TIo) => Promise<number>> = {
  "create-owner": createOwnerCommand,
  "create-workspace": createWorkspaceCommand,
  "delete-workspace": deleteWorkspaceCommand,
  "reset-password": resetPasswordCommand,
  "create-key": createKeyCommand,
  "set-plan": setPlanCommand,
};

/** Commands on the installation's files rather than through an open database (backup.ts). */
const FILE_COMMANDS: Record<string, (inst: TInstallation, opts: TOptions, io: TIo) => Promise<number>> = {
  backup: backupCommand,
  restore: restoreCommand,
};

/**
 * Returns the exit code: 0 done, 1 refused by the domain (409, 422 …), 2 a usage mistake. `installation` says
 * where the data is, for backup and restore (which open no database through `openDb`).
 */
export async function runAdmin(
  argv: readonly string[],
  openDb: () => Promise<Db>,
  io: TIo,
  installation: () => TInstallation = () => {
    throw new Error("runAdmin: no installation given for backup and restore");
  },
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    io.out(HELP);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  const onFiles = FILE_COMMANDS[command];
  if (!run && !onFiles) {
    io.err(`Unknown command "${command}". Run \`npm run admin -- help\`.`);
    return 2;
  }
  try {
    const { values, positionals } = parseArgs({ args: [...rest], options: OPTIONS, strict: true, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
    // A flag (--test) reaches the command as "true", like every other option's text.
    const options: TOptions = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === true ? "true" : v === false ? undefined : v]));
    if (onFiles) return await onFiles(installation(), options, io);
    return await run!(await openDb(), options, io);
  } catch (err) {
    // Some domain functions (first-run setup) validate with a plain zod parse: same report as a 422.
    const refusal = err instanceof z.ZodError ? errors.validation(issuesToDetails(err.issues, "input")) : err;
    if (refusal instanceof AppError) {
      io.err(`Refused: ${refusal.message}`);
      for (const [field, messages] of Object.entries(refusal.details ?? {})) io.err(`  ${field}: ${messages.join("; ")}`);
      return 1;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`${(err as Error).message}. Run \`npm run admin -- help\`.`);
      return 2;
    }
    throw err;
  }
}
