import { Suspense, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { socialNetworkOf } from "../../../server/src/contract/creators.ts";
import { homeLinkProblem } from "../../../server/src/contract/home-link.ts";
import { dialogs } from "../dialogs/dialog-store.ts";
import type { ApiError } from "../lib/api-client.ts";
import { creatorsApi, type CreatorPageView } from "../features/creators/creators.api.ts";
import { CreatorRequests, FanRequests } from "../features/creators/CustomRequests.tsx";
import { Earnings } from "../features/creators/Earnings.tsx";
import { LibraryGrid, PublishCreations } from "../features/creators/Library.tsx";
import { MembershipOffer } from "../features/creators/Membership.tsx";
import { useSession } from "../features/session/session.ts";
import { lazyView, translateMessage } from "../i18n/index.ts";
import { MessagePage } from "./MessagePage.tsx";
import { Component as NotFound } from "./NotFoundPage.tsx";

const ReportDialog = lazyView(() => import("../features/report/ReportDialog.tsx"));

/** The creator's own edit form: bio, social links (one per line), and the prices of a request and of a membership. */
function EditPage({ page, onSaved }: { page: CreatorPageView; onSaved: (p: CreatorPageView) => void }) {
  const { t } = useTranslation();
  const [bio, setBio] = useState(page.bio);
  const [links, setLinks] = useState(page.social_links.join("\n"));
  const [price, setPrice] = useState(page.request_price ? String(page.request_price) : "");
  const [membershipPrice, setMembershipPrice] = useState(page.membership_price ? String(page.membership_price) : "");
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  async function save() {
    setStatus(null);
    try {
      onSaved(await creatorsApi.update({ bio, social_links: links.split("\n").map((l) => l.trim()).filter(Boolean), request_price: price.trim() ? Number(price) : null, membership_price: membershipPrice.trim() ? Number(membershipPrice) : null }));
      setStatus({ ok: true, text: t("creators.saved") });
    } catch (e) {
      setStatus({ ok: false, text: translateMessage((e as Error).message) });
    }
  }
  return (
    <Box component="section" data-testid="creator-edit" sx={{ display: "grid", gap: 1.5, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">{t("creators.editTitle")}</Typography>
      <TextField label={t("creators.bio")} value={bio} onChange={(e) => setBio(e.target.value)} multiline minRows={3} slotProps={{ htmlInput: { maxLength: 500, "data-testid": "creator-bio" } }} />
      <TextField label={t("creators.links")} helperText={t("creators.linksHelp")} value={links} onChange={(e) => setLinks(e.target.value)} multiline minRows={2} slotProps={{ htmlInput: { "data-testid": "creator-links" } }} />
      <TextField label={t("creators.requestPrice")} helperText={t("creators.requestPriceHelp")} value={price} onChange={(e) => setPrice(e.target.value.replace(/\D/g, ""))} slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "creator-request-price" } }} />
      <TextField label={t("creators.membershipPrice")} helperText={t("creators.membershipPriceHelp")} value={membershipPrice} onChange={(e) => setMembershipPrice(e.target.value.replace(/\D/g, ""))} slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "creator-membership-price" } }} />
      {status && <Alert severity={status.ok ? "success" : "error"} data-testid="creator-edit-status">{status.text}</Alert>}
      <Button variant="contained" onClick={() => void save()} data-testid="creator-save" sx={{ justifySelf: "start" }}>{t("creators.save")}</Button>
    </Box>
  );
}

/** SPEC.md §2 `/{dynamicPath}`: a creator's public home-link page (issue 16); a path no link could be is not found. */
export function Component() {
  const { homeLink = "" } = useParams();
  return homeLinkProblem(homeLink) ? <NotFound /> : <CreatorHomePage homeLink={homeLink} />;
}

/** The page itself, with only real figures. */
function CreatorHomePage({ homeLink }: { homeLink: string }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const [page, setPage] = useState<CreatorPageView | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  // bumped after a membership or library change: the page is read again (members-only items unlock or lock)
  const [version, setVersion] = useState(0);
  const [reporting, setReporting] = useState(false);
  const reload = () => setVersion((v) => v + 1);

  useEffect(() => {
    setPage(null);
    setMissing(null);
  }, [homeLink]);

  useEffect(() => {
    let live = true;
    creatorsApi.page(homeLink).then(
      (p) => live && setPage(p),
      // the API client words every 404 alike; here it means SPEC.md §8 'Domain not found'
      (e: ApiError) => live && setMissing(e.code === 404 ? t("msg.domainNotFound") : translateMessage(e.message)),
    );
    return () => {
      live = false;
    };
  }, [homeLink, token, t, version]);

  useEffect(() => {
    if (page) document.title = `${page.title} · Reverie`;
  }, [page]);

  if (missing) return <MessagePage mark="@" title={missing} body={t("creators.missingBody")} testId="creator-missing" />;
  if (!page) return <LinearProgress />;

  async function toggle() {
    if (!page) return;
    if (!token) return dialogs.open("login");
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
          <Typography variant="h4" component="h1" sx={{ fontSize: { xs: "1.6rem", md: "2.2rem" }, overflowWrap: "anywhere" }}>{page.title}</Typography>
          <Typography color="text.secondary" noWrap>@{page.home_link}</Typography>
          <Typography sx={{ mt: 0.5 }} data-testid="creator-subscribers">{t("creators.subscribers", { count: page.subscriber_count })}</Typography>
          {page.satisfaction_rate !== null && <Typography variant="body2" color="text.secondary" data-testid="creator-satisfaction">{t("creators.satisfaction", { rate: page.satisfaction_rate })}</Typography>}
        </Box>
      </Box>
      {!page.is_owner && (
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center", justifyContent: "space-between" }}>
          <Button variant={page.subscribed ? "outlined" : "contained"} size="large" disabled={busy} onClick={() => void toggle()} data-testid="creator-subscribe">
            {t(page.subscribed ? "creators.unsubscribe" : "creators.subscribe")}
          </Button>
          <Button size="small" color="inherit" onClick={() => setReporting(true)} data-testid="creator-report">{t("report.action")}</Button>
        </Box>
      )}
      <Suspense fallback={null}>{reporting && <ReportDialog target={{ type: "creator_page", id: page.id }} onClose={() => setReporting(false)} onSent={reload} />}</Suspense>
      {notice && <Alert severity={notice.ok ? "success" : "error"} data-testid="creator-notice">{notice.text}</Alert>}
      {page.bio && <Typography sx={{ whiteSpace: "pre-line", overflowWrap: "anywhere" }} data-testid="creator-bio-text">{page.bio}</Typography>}
      {page.social_links.length > 0 && (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>
          {page.social_links.map((url) => (
            <Chip key={url} component="a" href={url} target="_blank" rel="noopener noreferrer nofollow" clickable label={socialNetworkOf(url) ?? url} />
          ))}
        </Box>
      )}
      {page.is_owner && <EditPage page={page} onSaved={setPage} />}
      {page.is_owner && <CreatorRequests />}
      {page.is_owner && <Earnings />}
      {!page.is_owner && (page.membership_price !== null || page.membership?.member) && <MembershipOffer page={page} signedIn={Boolean(token)} onSignIn={() => dialogs.open("login")} onChanged={reload} />}
      {!page.is_owner && page.request_price !== null && <FanRequests page={page} signedIn={Boolean(token)} onSignIn={() => dialogs.open("login")} />}
      {page.is_owner && <PublishCreations page={page} onChanged={reload} />}
      <LibraryGrid page={page} onChanged={reload} />
    </Box>
  );
}
