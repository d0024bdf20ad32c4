import { Admin, Resource } from "react-admin";
import { BrowserRouter } from "react-router";
import { authProvider } from "./authProvider.ts";
import { auditLog } from "./audit/index.tsx";
import { appeals } from "./appeals/index.tsx";
import { bans } from "./bans/index.tsx";
import { channels, pixelIds } from "./channels/index.tsx";
import { chatBackends, chatPolicyHits, chatSuspensions, conversations } from "./chat/index.tsx";
import { characterModels } from "./character-models/index.tsx";
import { characters, creatorPages } from "./content/index.tsx";
import { creatorLibraryItems, creatorMemberships } from "./creators/index.tsx";
import { Dashboard } from "./dashboard/Dashboard.tsx";
import { dataProvider } from "./dataProvider.ts";
import { engines } from "./engines/index.tsx";
import { evidence } from "./evidence/index.tsx";
import { i18nProvider } from "./i18n/index.ts";
import { LoginPage } from "./LoginPage.tsx";
import { memberships } from "./memberships/index.tsx";
import { operations } from "./operations/index.tsx";
import { orders } from "./orders/index.tsx";
import { outbox } from "./outbox/index.tsx";
import { disputes, payouts } from "./payouts/index.tsx";
import { tips } from "./tips/index.tsx";
import { reportedThreads } from "./messages/index.tsx";
import { reports } from "./reports/index.tsx";
import { checkIns, referrals, rewardDays } from "./rewards/index.tsx";
import { uploadScreenings } from "./screening/index.tsx";
import { blockedHashes } from "./screening/blocklist.tsx";
import { banners, prompts, settings } from "./site/index.tsx";
import { products } from "./products/index.tsx";
import { staff } from "./staff/index.tsx";
import { tasks } from "./tasks/index.tsx";
import { templates } from "./templates/index.tsx";
import { transparency } from "./transparency/index.tsx";
import { users } from "./users/index.tsx";
import { supportThreads } from "./support/index.tsx";
import { legalVersions } from "./legal/index.tsx";
import { creditGrantImports, pixelIdImports, productImports } from "./imports/index.tsx";
import { ConsoleLayout } from "./menu/ConsoleLayout.tsx";

/** Menus follow the staff member's CASL rules: react-admin asks authProvider.canAccess for each resource; menu/groups.ts places them. */
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
        <Resource name="users" {...users} />
        <Resource name="support-threads" {...supportThreads} />
        <Resource name="orders" {...orders} />
        <Resource name="memberships" {...memberships} />
        <Resource name="products" {...products} />
        <Resource name="templates" {...templates} />
        <Resource name="engines" {...engines} />
        <Resource name="operations" {...operations} />
        <Resource name="channels" {...channels} />
        <Resource name="reports" {...reports} />
        <Resource name="bans" {...bans} />
        <Resource name="appeals" {...appeals} />
        <Resource name="transparency" {...transparency} />
        <Resource name="evidence" {...evidence} />
        <Resource name="characters" {...characters} />
        <Resource name="creator-pages" {...creatorPages} />
        <Resource name="creator-memberships" {...creatorMemberships} />
        <Resource name="creator-library-items" {...creatorLibraryItems} />
        <Resource name="payouts" {...payouts} />
        <Resource name="disputes" {...disputes} />
        <Resource name="tips" {...tips} />
        <Resource name="conversations" {...conversations} />
        <Resource name="chat-policy-hits" {...chatPolicyHits} />
        <Resource name="chat-suspensions" {...chatSuspensions} />
        <Resource name="reported-threads" {...reportedThreads} />
        <Resource name="chat-backends" {...chatBackends} />
        <Resource name="character-models" {...characterModels} />
        <Resource name="upload-screenings" {...uploadScreenings} />
        <Resource name="blocked-hashes" {...blockedHashes} />
        <Resource name="generation-tasks" {...tasks} />
        <Resource name="banners" {...banners} />
        <Resource name="prompt-suggestions" {...prompts} />
        <Resource name="site-settings" {...settings} />
        <Resource name="legal-versions" {...legalVersions} />
        <Resource name="audit-log" {...auditLog} />
        <Resource name="staff" {...staff} />
        <Resource name="outbox" {...outbox} />
        <Resource name="pixel-ids" {...pixelIds} />
        <Resource name="pixel-id-imports" {...pixelIdImports} />
        <Resource name="credit-grant-imports" {...creditGrantImports} />
        <Resource name="product-imports" {...productImports} />
        <Resource name="referrals" {...referrals} />
        <Resource name="reward-days" {...rewardDays} />
        <Resource name="check-ins" {...checkIns} />
        <Resource name="ledger" />
        <Resource name="payment-events" />
      </Admin>
    </BrowserRouter>
  );
}
