import { Suspense, useEffect, useState, type ComponentProps } from "react";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { socialNetworkOf } from "../../../server/src/contract/creators.ts";
import { homeLinkProblem } from "../../../server/src/contract/home-link.ts";
import { dialogs } from "../dialogs/dialog-store.ts";
import type { ApiError } from "../lib/api-client.ts";
import { creatorsApi, type CreatorPageView } from "../features/creators/creators.api.ts";
import type { FanRequests as FanRequestsForm } from "../features/creators/CustomRequests.tsx";
import { LibraryGrid } from "../features/creators/Library.tsx";
import { MembershipOffer } from "../features/creators/Membership.tsx";
import { usePermission } from "../features/session/Can.tsx";
import { useSession } from "../features/session/session.ts";
import { lazyView, translateMessage } from "../i18n/index.ts";
import { MessagePage } from "./MessagePage.tsx";
import { Component as NotFound } from "./NotFoundPage.tsx";

const ReportDialog = lazyView(() => import("../features/report/ReportDialog.tsx"));
const TipDialog = lazyView(() => import("../features/creators/TipDialog.tsx"));
// what only the creator or a fan who asks uses loads on its own: fans opening a shared link do not download the
// creator's edit, request, earnings and publish panels, nor the form fields they are built from
const CreatorTools = lazyView(() => import("../features/creators/CreatorTools.tsx"));
const FanRequests = lazyView<ComponentProps<typeof FanRequestsForm>>(() =>
  import("../features/creators/CustomRequests.tsx").then((m) => ({ default: m.FanRequests })),
);

/** SPEC.md §2 `/{dynamicPath}`: a creator's public home-link page (issue 16); a path no link could be is not found. */
export function Component() {
  const { homeLink = "" } = useParams();
  return homeLinkProblem(homeLink) ? <NotFound /> : <CreatorHomePage homeLink={homeLink} />;
}

/** The page itself, with only real figures. */
function CreatorHomePage({ homeLink }: { homeLink: string }) {
  const { t } = useTranslation();
  const { token } = useSession();
  // following is a saved account's (docs/decisions/309): a guest is offered the login dialog, which saves the account
  const canFollow = usePermission({ permission: "create:Follow" });
  const [page, setPage] = useState<CreatorPageView | null>(null);
  /** why the page cannot be shown: SPEC.md §8's words as the heading, and what they mean for the person below */
  const [missing, setMissing] = useState<{ title: string; body: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  // bumped after a membership or library change: the page is read again (members-only items unlock or lock)
  const [version, setVersion] = useState(0);
  const [reporting, setReporting] = useState(false);
  const [tipping, setTipping] = useState(false);
  const reload = () => setVersion((v) => v + 1);

  useEffect(() => {
    setPage(null);
    setMissing(null);
  }, [homeLink]);

  useEffect(() => {
    let live = true;
    creatorsApi.page(homeLink).then(
      (p) => live && setPage(p),
      // the API answers SPEC.md §8 'Domain not found': those words head the page (issue 46 item 25), and below them
      // what they mean for the person (issue 31 item 6)
      (e: ApiError) =>
        live &&
        setMissing(
          e.code === 404
            ? { title: t("msg.domainNotFound"), body: t("creators.pageNotFoundBody") }
            : { title: translateMessage(e.message), body: t("creators.missingBody") },
        ),
    );
    return () => {
      live = false;
    };
  }, [homeLink, token, t, version]);

  useEffect(() => {
    if (page) document.title = `${page.title} · Reverie`;
  }, [page]);

  if (missing) return <MessagePage mark="@" title={missing.title} body={missing.body} testId="creator-missing" />;
  if (!page) return <LinearProgress />;

  async function toggle() {
    if (!page) return;
    if (!canFollow) return dialogs.open("login");
    setBusy(true);
    setNotice(null);
    try {
      const r = await creatorsApi.bind(page.home_link, !page.subscribed);
      setPage({ ...page, subscribed: r.subscribed, subscriber_count: r.subscriber_count });
      setNotice({ ok: true, text: t(r.subscribed ? "creators.subscribedDone" : "creators.unsubscribedDone") });
    } catch (e) {
      // SPEC.md §4: subscribe and unsubscribe each end in success or failure
      setNotice({ ok: false, text: `${t(page.subscribed ? "msg.unsubscribeFailed" : "msg.subscribeFailed")}: ${translateMessage((e as Error).message)}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 880, mx: "auto", px: 2, py: { xs: 3, md: 5 }, pb: 12, display: "grid", gap: 3 }} data-testid="creator-page">
      <Box sx={{ display: "grid", gridTemplateColumns: "auto 1fr", gap: 2, alignItems: "center" }}>
        <Avatar src={page.cover_url ?? undefined} alt="" sx={{ width: { xs: 88, md: 120 }, height: { xs: 88, md: 120 } }} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: "1.6rem", md: "2.2rem" }, overflowWrap: "anywhere" }}>
            {page.title}
          </Typography>
          <Typography color="text.secondary" noWrap>
            @{page.home_link}
          </Typography>
          <Typography sx={{ mt: 0.5 }} data-testid="creator-subscribers">
            {t("creators.subscribers", { count: page.subscriber_count })}
          </Typography>
          {page.satisfaction_rate !== null && (
            <Typography variant="body2" color="text.secondary" data-testid="creator-satisfaction">
              {t("creators.satisfaction", { rate: page.satisfaction_rate })}
            </Typography>
          )}
        </Box>
      </Box>
      {!page.is_owner && (
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center", justifyContent: "space-between" }}>
          <Button
            variant={page.subscribed ? "outlined" : "contained"}
            size="large"
            disabled={busy}
            onClick={() => void toggle()}
            data-testid="creator-subscribe"
          >
            {t(page.subscribed ? "creators.unsubscribe" : "creators.subscribe")}
          </Button>
          <Button variant="outlined" size="large" onClick={() => (token ? setTipping(true) : dialogs.open("login"))} data-testid="creator-tip">
            {t("creators.tip")}
          </Button>
          {token ? (
            <Button
              variant="outlined"
              size="large"
              component={RouterLink}
              to={`/messages?to=${encodeURIComponent(page.home_link)}`}
              data-testid="creator-message"
            >
              {t("creators.message")}
            </Button>
          ) : (
            <Button variant="outlined" size="large" onClick={() => dialogs.open("login")} data-testid="creator-message">
              {t("creators.message")}
            </Button>
          )}
          <Button size="small" color="inherit" onClick={() => setReporting(true)} data-testid="creator-report">
            {t("report.action")}
          </Button>
        </Box>
      )}
      <Suspense fallback={null}>
        {reporting && <ReportDialog target={{ type: "creator_page", id: page.id }} onClose={() => setReporting(false)} onSent={reload} />}
        {tipping && <TipDialog homeLink={page.home_link} title={page.title} onClose={() => setTipping(false)} />}
      </Suspense>
      {notice && (
        <Alert severity={notice.ok ? "success" : "error"} data-testid="creator-notice">
          {notice.text}
        </Alert>
      )}
      {page.bio && (
        <Typography sx={{ whiteSpace: "pre-line", overflowWrap: "anywhere" }} data-testid="creator-bio-text">
          {page.bio}
        </Typography>
      )}
      {page.social_links.length > 0 && (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>
          {page.social_links.map((url) => (
            // pill buttons rather than MUI Chips: Chip's 2.9 KB would be the fan's to download (docs/decisions/214)
            <Button
              key={url}
              component="a"
              href={url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              size="small"
              variant="outlined"
              color="inherit"
              sx={{ maxWidth: "100%", borderColor: "divider" }}
            >
              <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                {socialNetworkOf(url) ?? url}
              </Box>
            </Button>
          ))}
        </Box>
      )}
      {page.is_owner && (
        <Suspense fallback={<LinearProgress />}>
          <CreatorTools page={page} onSaved={setPage} onChanged={reload} />
        </Suspense>
      )}
      {!page.is_owner && (page.membership_price !== null || page.membership?.member) && (
        <MembershipOffer page={page} signedIn={Boolean(token)} onSignIn={() => dialogs.open("login")} onChanged={reload} />
      )}
      {!page.is_owner && page.request_price !== null && (
        <Suspense fallback={null}>
          <FanRequests page={page} signedIn={Boolean(token)} onSignIn={() => dialogs.open("login")} />
        </Suspense>
      )}
      <LibraryGrid page={page} onChanged={reload} />
    </Box>
  );
}
