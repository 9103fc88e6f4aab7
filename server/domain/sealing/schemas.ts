import { EVIDENCE_LEVELS } from "@/common/evidence";
import { z } from "@/server/lib/zod";

const ZVerifiedTimestamp = z.object({
  kind: z.enum(["signature", "document"]).openapi({
    description: "signature: an RFC 3161 token over the signature value (the trusted signing time); document: a /DocTimeStamp over the whole file",
  }),
  time: z.string().openapi({ format: "date-time", description: "The time the time-stamping authority vouches for" }),
  authority: z.string().openapi({ description: "Who issued it: the TSA certificate's subject" }),
  valid: z.boolean().openapi({
    description:
      "The token itself checks out: its imprint matches what it covers, the TSA's signature verifies, and the TSA certificate carries the timeStamping purpose",
  }),
});

export const ZVerificationEvidence = z
  .object({
    level: z
      .enum(EVIDENCE_LEVELS)
      .openapi({ description: "The PAdES baseline level this copy reaches; B-B carries no trusted time (this server's clock only)" }),
    trustedTime: z.boolean().openapi({ description: "At least one valid time-stamp vouches for the signing time" }),
    timestamps: z.array(ZVerifiedTimestamp),
  })
  .openapi("VerificationEvidence");

export const ZVerification = z
  .object({
    sealedHere: z.boolean().openapi({ description: "The file carries a seal made with this instance's signing certificate" }),
    unaltered: z.boolean().openapi({ description: "The seal is intact AND the file is, byte for byte, one this instance stored when it sealed a package" }),
    message: z.string().openapi({ description: "The verdict in one sentence, for the page" }),
    package: z
      .object({
        title: z.string(),
        completedAt: z.string().nullable(),
        signers: z.array(z.string()).openapi({ description: "The recipients' names, in signing order" }),
      })
      .nullable()
      .openapi({ description: "Only for an unaltered file: what its certificate already shows, nothing more" }),
    evidence: ZVerificationEvidence.nullable().openapi({ description: "For a file that carries this instance's seal: its evidence level and each time-stamp" }),
    newerVersion: z.boolean().openapi({
      description:
        "This exact file is an earlier version of one this instance keeps: its seal has since been upgraded or renewed (time-stamps added by an incremental update); the package's download now serves the newer version",
    }),
    test: z.boolean().openapi({
      description: "The seal is this instance's TEST identity: the file comes from a test workspace and is not a valid signature",
    }),
  })
  .openapi("Verification");
export type TVerification = z.infer<typeof ZVerification>;

const ZTime = z.string().openapi({ format: "date-time", example: "2030-01-01T12:00:00.000Z" });

export const ZSealingProblems = z
  .object({
    total: z.number().int().openapi({ description: "Packages you can see whose sealing stopped or whose last attempt failed" }),
    failed: z.number().int().openapi({ description: "Of those, how many stopped (FAILED): they wait for someone to retry them" }),
    items: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        state: z.enum(["FAILED", "RETRYING"]),
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        failedAt: ZTime.nullable(),
        nextAttemptAt: ZTime.nullable(),
      }),
    ),
  })
  .openapi("SealingProblems", { description: "The overview's sealing alert: stopped seals first, then those retrying" });
export type TSealingProblems = z.output<typeof ZSealingProblems>;
