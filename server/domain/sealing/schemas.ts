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
