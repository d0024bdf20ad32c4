/**
 * The provenance page (issue 33 item 8): the words shared by the server and the consumer app. Import-free
 * (docs/decisions/050). The app translates the messages by these exact English strings.
 */

/**
 * What an answer rests on: the file's own Content Credentials signed by this operator, the perceptual hash of one of
 * our outputs (the credentials were stripped or broken), or nothing of ours.
 */
export const PROVENANCE_EVIDENCE = ["credentials", "fingerprint", "none"] as const;
export type ProvenanceEvidence = (typeof PROVENANCE_EVIDENCE)[number];

export const PROVENANCE_MESSAGES = {
  /** neither a file nor a link was given, or both */
  fileOrLink: "Please choose a picture or a video, or paste a link",
  /** the file is neither a picture nor a video the page can read */
  fileKind: "Please choose a picture (png, jpg, webp) or a video (mp4)",
  /** the link names no output of this site */
  notOurLink: "This link does not lead to a picture or video of this site",
} as const;
