import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** One section of the account area: its anchor id, its heading's key, and its component (loaded with the page). */
export interface AccountSection {
  id: string;
  titleKey: string;
  Component: LazyExoticComponent<ComponentType>;
}

/**
 * The account area's sections, in the order they show (issue 30). A feature adds its own section with one line here
 * and one component file of its own (a creator's page and models, the person's data), so sections never share code.
 */
export const ACCOUNT_SECTIONS: AccountSection[] = [
  { id: "profile", titleKey: "account.profile.title", Component: lazy(() => import("./ProfileSection.tsx")) },
  { id: "rewards", titleKey: "rewards.title", Component: lazy(() => import("../rewards/RewardsSection.tsx")) },
  { id: "credits", titleKey: "rewards.history.title", Component: lazy(() => import("../rewards/CreditHistory.tsx")) },
  { id: "purchases", titleKey: "account.purchases.title", Component: lazy(() => import("./PurchasesSection.tsx")) },
  { id: "plan", titleKey: "account.plan.title", Component: lazy(() => import("./PlanSection.tsx")) },
  { id: "notifications", titleKey: "notifications.digest.title", Component: lazy(() => import("../notifications/DigestSection.tsx")) },
  { id: "tips", titleKey: "creators.tipsSentTitle", Component: lazy(() => import("../creators/TipList.tsx")) },
  { id: "data", titleKey: "privacy.title", Component: lazy(() => import("../privacy/MyData.tsx").then((m) => ({ default: m.MyData }))) },
];
