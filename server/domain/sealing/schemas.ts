import { z } from "@/server/lib/zod";

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
