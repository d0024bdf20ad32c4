import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../dialogs/dialog-store.ts";
import { AppealForm } from "../features/notices/AppealForm.tsx";
import { DecisionSummary } from "../features/notices/DecisionSummary.tsx";
import { listNotices, type Notice } from "../features/notices/notices.api.ts";
import { useSession } from "../features/session/session.ts";
import { translateMessage } from "../i18n/index.ts";

function NoticeCard({ n }: { n: Notice }) {
  const { t, i18n } = useTranslation();
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "long" }).format(new Date(iso));
  return (
    <Paper component="section" sx={{ p: { xs: 2, md: 3 }, borderRadius: 4, display: "grid", gap: 1.5 }} data-testid={`notice-${n.id}`}>
      <Typography variant="h6" component="h2" sx={{ overflowWrap: "anywhere" }}>
        {t(`notices.action.${n.action}`)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("notices.date", { date: date(n.created_at) })}
        {n.target_type && n.target_id !== null ? ` · ${t("notices.content", { type: t(`notices.target.${n.target_type}`), id: n.target_id })}` : ""}
      </Typography>
      <DecisionSummary ground={n.ground} automated={n.automated} explanation={n.explanation} />
      {n.reversed_at && <Alert severity="success">{t("notices.reversed", { date: date(n.reversed_at) })}</Alert>}
      <AppealForm id={n.id} appealKey={n.appeal_key} status={n.appeal?.status ?? null} answer={n.appeal?.answer} reversed={n.reversed_at !== null} />
    </Paper>
  );
}

/** /notices: every decision about the signed-in person's content or account, with its statement of reasons and the appeal. */
export function Component() {
  const { t } = useTranslation();
  const { token } = useSession();
  const [list, setList] = useState<Notice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    listNotices()
      .then((r) => setList(r.list))
      .catch((e: Error) => setError(translateMessage(e.message)));
  }, [token]);

  return (
    <Box sx={{ maxWidth: 760, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }} data-testid="notices-page">
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 34 } }}>
        {t("notices.page.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3 }}>
        {t("notices.page.intro")}
      </Typography>
      {!token ? (
        <Box sx={{ display: "grid", gap: 2, justifyItems: "start" }}>
          <Typography>{t("notices.page.login")}</Typography>
          <Button variant="outlined" onClick={() => dialogs.open("login")}>
            {t("login.action")}
          </Button>
        </Box>
      ) : error ? (
        <Alert severity="error">{error}</Alert>
      ) : list === null ? (
        <CircularProgress />
      ) : list.length === 0 ? (
        <Typography data-testid="notices-empty">{t("notices.page.empty")}</Typography>
      ) : (
        <Box sx={{ display: "grid", gap: 2 }}>
          {list.map((n) => (
            <NoticeCard key={n.id} n={n} />
          ))}
        </Box>
      )}
    </Box>
  );
}
