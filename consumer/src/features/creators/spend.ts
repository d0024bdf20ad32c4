/** A spend of credits on a creator, as the person confirms it (issue 46 item 14). */
export interface Spend {
  /** what the credits buy, one sentence in the person's language */
  what: string;
  /** credits taken (or held) from the balance now */
  amount: number;
  /** a membership: it renews from the balance every `days` days, next on `next` */
  renews?: { next: Date; days: number };
  /** a custom request: the credits are held, and come back if it is declined or not answered */
  held?: boolean;
  /** the spend itself */
  pay: () => Promise<void>;
  /** a short balance: the buy dialog opens, and this gets SPEC's words ("Please get points first") to show */
  onShort: (message: string) => void;
}
