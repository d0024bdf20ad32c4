/** Legal pages staff complete in the console (issue 35 item 2, docs/decisions/282). Import-free (docs/decisions/050). */

/** The documents of /agreement, in the footer's order (SPEC.md §2 footer: legal, terms, privacy, disclaimer, return policy, contact). */
export const LEGAL_DOCUMENTS = ["legal", "terms", "privacy", "disclaimer", "returnPolicy", "contact"] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

/**
 * The operator's particulars every version carries; a document names one as `{{field}}` and the page shows its value,
 * or says plainly that it is still missing.
 */
export const LEGAL_FIELDS = ["companyName", "address", "contactEmail", "dmcaAgent", "custodianStatement"] as const;
export type LegalField = (typeof LEGAL_FIELDS)[number];
