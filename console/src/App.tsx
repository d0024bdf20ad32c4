import { lazy } from "react";
import { Admin, Resource } from "react-admin";
import { BrowserRouter } from "react-router";
import { authProvider } from "./authProvider.ts";
import { dataProvider } from "./dataProvider.ts";
import { i18nProvider } from "./i18n/index.ts";
import { LoginPage } from "./LoginPage.tsx";
import { ConsoleLayout } from "./menu/ConsoleLayout.tsx";
import { RESOURCES } from "./resources.tsx";

/** The dashboard's charts load with it, after sign-in (docs/decisions/361). */
const Dashboard = lazy(() => import("./dashboard/Dashboard.tsx").then((m) => ({ default: m.Dashboard })));

/**
 * Menus follow the staff member's CASL rules: react-admin asks authProvider.canAccess for each resource; menu/groups.ts
 * places them. The sign-in page and the shell load first; each resource's pages load when first shown (resources.tsx).
 */
export function App() {
  // real paths under /console (not react-admin's default hash routes), so links and screenshots name the page
  return (
    <BrowserRouter basename="/console">
      <Admin
        title="console.title"
        dashboard={Dashboard}
        layout={ConsoleLayout}
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        loginPage={LoginPage}
        requireAuth
        disableTelemetry
      >
        {RESOURCES.map((r) => (
          <Resource key={r.name} {...r} />
        ))}
      </Admin>
    </BrowserRouter>
  );
}
