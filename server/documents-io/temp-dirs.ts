/**
 * The private temporary directories of uploads (`temp-copy.ts`: the copy the inspector reads) and DOCX
 * conversions (`convert-docx.ts`: LibreOffice's profile, input and output): a `mkdtemp` directory (0700)
 * directly under `os.tmpdir()` named `foliosign-upload-XXXXXX` or `foliosign-convert-XXXXXX`. The process
 * removes each whatever happens, except when it is killed mid-upload or mid-conversion: `npm start` sweeps those
 * (`sweep-temp-dirs.ts`, kept apart so the Next bundle, which makes the directories, never holds the sweep).
 */
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export type TTempKind = "upload" | "convert";

const OURS = /^foliosign-(upload|convert)-[A-Za-z0-9]{6}$/;

/** A fresh private directory for one upload or conversion. */
export function makeTempDir(kind: TTempKind): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `foliosign-${kind}-`));
}

/** Exactly the names `makeTempDir` makes: the prefix and mkdtemp's six characters, nothing more. */
export function isTempDirName(name: string): boolean {
  return OURS.test(name);
}
