/**
 * The two sides of every dealing between a fan and a creator page: who wrote a message (docs/decisions/310), and
 * from which side a list of tips or custom requests is seen. Import-free (docs/decisions/050).
 */
export const SIDES = ["fan", "creator"] as const;
export type Side = (typeof SIDES)[number];
