/**
 * The PAdES baseline levels a sealed file can reach, weakest first, and what each means for someone reading
 * the PDF. Shared by the server (the schema, the package's evidence) and the browser (the package page and
 * /verify), so the words are the same everywhere.
 */
export const EVIDENCE_LEVELS = ["B-B", "B-T", "B-LT", "B-LTA"] as const;
export type TEvidenceLevelName = (typeof EVIDENCE_LEVELS)[number];

/** The weakest of the given levels (a package is only as strong as its weakest sealed file); B-B for none. */
export function weakestLevel(levels: readonly TEvidenceLevelName[]): TEvidenceLevelName {
  let rank = levels.length === 0 ? 0 : EVIDENCE_LEVELS.length - 1;
  for (const level of levels) rank = Math.min(rank, EVIDENCE_LEVELS.indexOf(level));
  return EVIDENCE_LEVELS[rank]!;
}

/** One sentence per level, for a reader of the PDF. */
export const EVIDENCE_LEVEL_MEANING: Record<TEvidenceLevelName, string> = {
  "B-B": "Signed, with no trusted time: the signing time is this server's clock only, and the seal can be checked only while its certificate is valid.",
  "B-T": "Signed, with a trusted time from a time-stamping authority proving the signature existed at that moment.",
  "B-LT": "Trusted time plus the certificates and revocation data needed to check the seal later, stored in the file.",
  "B-LTA":
    "Long-term: trusted time, validation data and a document time-stamp over all of it, renewed before it expires, so the seal stays verifiable for decades.",
};
