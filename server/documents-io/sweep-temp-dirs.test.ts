/**
 * The sweep at start removes the temporary directories an upload or a conversion left behind when its process
 * was killed, and nothing else. Protects: a second server sharing the TMPDIR keeps its upload in progress (a
 * directory created long ago whose copy is still being written is live), and whatever is not exactly ours —
 * a longer name with our prefix (the tests' own scratch roots), another program's entry, a plain file or a
 * symlink with our name, a directory another user owns — is never touched. Real directories, no clock: the
 * entries' mtimes are set relative to the `now` the sweep is given.
 */
import { chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { STALE_AFTER_MS, staleAfterMs, sweepStaleTempDirs } from "./sweep-temp-dirs";
import { makeTempDir } from "./temp-dirs";

const scratch = mkdtempSync(path.join(os.tmpdir(), "foliosign-sweep-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const NOW = new Date("2026-03-01T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const STALE = ago(STALE_AFTER_MS + 60_000);
const FRESH = ago(60_000);

let rootCount = 0;
function newRoot(): string {
  const root = path.join(scratch, `root-${rootCount++}`);
  mkdirSync(root);
  return root;
}

/** A directory with the given files (relative paths), every entry's mtime set to `at` unless `times` says otherwise. */
function entry(root: string, name: string, files: string[], at: Date, times: Record<string, Date> = {}): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { mode: 0o700 });
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), "document bytes", { mode: 0o600 });
  }
  // Deepest first: setting a file's time does not move its directory's, but creating a file does.
  const all = [...files.flatMap((f) => ancestors(f)), ...files].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const rel of new Set(all)) {
    const t = times[rel] ?? at;
    utimesSync(path.join(dir, rel), t, t);
  }
  utimesSync(dir, at, at);
  return dir;
}

function ancestors(file: string): string[] {
  const parts = file.split("/").slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

describe("sweepStaleTempDirs", () => {
  it("removes our stale upload and conversion directories, with everything in them", async () => {
    const root = newRoot();
    const upload = entry(root, "foliosign-upload-Ab3dE9", ["body"], STALE);
    const convert = entry(root, "foliosign-convert-x1Y2z3", ["document.docx", "profile/user/registrymodifications.xcu", "out/document.pdf"], STALE);

    const removed = await sweepStaleTempDirs({ root, now: NOW });

    expect(removed.sort()).toEqual(["foliosign-convert-x1Y2z3", "foliosign-upload-Ab3dE9"]);
    expect(existsSync(upload)).toBe(false);
    expect(existsSync(convert)).toBe(false);
  });

  it("keeps fresh directories, including an old one whose contents are still being written", async () => {
    const root = newRoot();
    const fresh = entry(root, "foliosign-upload-fresh1", ["body"], FRESH);
    // Another server's upload that started long ago and is still streaming: the directory is old, the copy is not.
    const streaming = entry(root, "foliosign-upload-slow01", ["body"], STALE, { body: FRESH });
    // Another server's conversion whose LibreOffice just wrote deep in its profile.
    const converting = entry(root, "foliosign-convert-busy01", ["document.docx", "profile/user/cache/x.dat"], STALE, { "profile/user/cache/x.dat": FRESH });
    const justStale = entry(root, "foliosign-upload-edge01", ["body"], ago(STALE_AFTER_MS + 1));

    expect(await sweepStaleTempDirs({ root, now: NOW })).toEqual(["foliosign-upload-edge01"]);

    expect(existsSync(path.join(fresh, "body"))).toBe(true);
    expect(existsSync(path.join(streaming, "body"))).toBe(true);
    expect(existsSync(path.join(converting, "profile/user/cache/x.dat"))).toBe(true);
    expect(existsSync(justStale)).toBe(false);
  });

  it("never touches what is not exactly ours, however old", async () => {
    const root = newRoot();
    const foreign = [
      entry(root, "foliosign-upload-test-AbCdEf", ["keep"], STALE), // a longer name with our prefix (a test's scratch root)
      entry(root, "foliosign-uploadAbCdEf", ["keep"], STALE),
      entry(root, "foliosign-seal-AbCdEf", ["keep"], STALE), // ours, but not an upload's or a conversion's
      entry(root, "other-upload-AbCdEf", ["keep"], STALE),
      entry(root, "foliosign-upload-Ab_dEf", ["keep"], STALE), // not mkdtemp's alphabet
    ];
    const plainFile = path.join(root, "foliosign-upload-file01");
    writeFileSync(plainFile, "not a directory");
    utimesSync(plainFile, STALE, STALE);
    // A symlink with our name pointing at someone's old directory: neither the link nor its target goes.
    const target = entry(scratch, `target-${rootCount}`, ["precious"], STALE);
    const link = path.join(root, "foliosign-convert-link01");
    symlinkSync(target, link);

    expect(await sweepStaleTempDirs({ root, now: NOW })).toEqual([]);

    for (const dir of foreign) expect(existsSync(path.join(dir, "keep"))).toBe(true);
    expect(existsSync(plainFile)).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(path.join(target, "precious"))).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)("leaves a directory owned by another user (checked where the test runs as root)", async () => {
    const root = newRoot();
    const theirs = entry(root, "foliosign-upload-theirs", ["body"], STALE);
    chownSync(theirs, 4242, 4242);
    const ours = entry(root, "foliosign-upload-ours01", ["body"], STALE);

    expect(await sweepStaleTempDirs({ root, now: NOW })).toEqual(["foliosign-upload-ours01"]);

    expect(statSync(path.join(theirs, "body")).isFile()).toBe(true);
    expect(existsSync(ours)).toBe(false);
  });

  it("answers an empty list when the root cannot be read", async () => {
    expect(await sweepStaleTempDirs({ root: path.join(scratch, "missing"), now: NOW })).toEqual([]);
  });

  it("recognises the directories makeTempDir creates, and only those", async () => {
    const root = newRoot();
    const previous = process.env.TMPDIR;
    // os.tmpdir() reads TMPDIR at each call: the directories are made in our root.
    process.env.TMPDIR = root;
    try {
      const upload = await makeTempDir("upload");
      const convert = await makeTempDir("convert");
      expect(path.dirname(upload)).toBe(root);
      expect(statSync(upload).mode & 0o777).toBe(0o700);
      for (const dir of [upload, convert]) utimesSync(dir, STALE, STALE);
      const removed = await sweepStaleTempDirs({ now: NOW });
      expect(removed.sort()).toEqual([path.basename(convert), path.basename(upload)].sort());
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  });
});

describe("staleAfterMs", () => {
  it("is an hour, or twice the longest configured step after the last write", () => {
    expect(staleAfterMs({ INSPECT_TIMEOUT_MS: 30_000, CONVERT_TIMEOUT_MS: 60_000 })).toBe(STALE_AFTER_MS);
    expect(staleAfterMs({ INSPECT_TIMEOUT_MS: 30_000, CONVERT_TIMEOUT_MS: 45 * 60_000 })).toBe(90 * 60_000);
  });
});
