import { z } from "zod";
import { PROVENANCE_EVIDENCE } from "../../contract/provenance.ts";

/** A file travels as multipart `file`; a link to one of our outputs as `link` (multipart field or JSON). */
export const provenanceCheckBody = z.object({
  link: z.string().trim().min(1).max(2000).optional(),
});

/** The answer names no person, prompt or output: only whether, how we know, when and by what it was made. */
export const provenanceAnswer = z.object({
  madeWithReverie: z.boolean(),
  evidence: z.enum(PROVENANCE_EVIDENCE),
  /** ISO time the output was made, from its credentials or our record of its fingerprint */
  madeAt: z.string().nullable(),
  /** who and which engine made it, as the credentials name it (`Reverie (comfyui)`) */
  generator: z.string().nullable(),
  /** what the file's own Content Credentials say; null when it carries none */
  credentials: z
    .object({
      valid: z.boolean(),
      signedByOperator: z.boolean(),
      aiGenerated: z.boolean(),
    })
    .nullable(),
});
export type ProvenanceAnswer = z.infer<typeof provenanceAnswer>;
