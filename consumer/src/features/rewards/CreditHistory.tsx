import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useSession } from "../session/session.ts";
import { creditHistory, type CreditMovement } from "./rewards.api.ts";

/** My credits: every movement of the balance, newest first, named by its reason (purchase, spent, daily gift, …). */
export default function CreditHistory() {
  const { t, i18n } = useTranslation();
  const [rows, setRows] = useState<CreditMovement[] | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  // a new balance (a check-in, a purchase, a creation) is a new movement: the list starts again from the newest
  const points = useSession().user?.points;
  const [seenPoints, setSeenPoints] = useState(points);
  if (points !== seenPoints) {
    setSeenPoints(points);
    setPage(1);
  }

  useEffect(() => {
    void points;
    creditHistory(page)
      .then((r) => {
        setRows((prev) => (page === 1 ? r.list : [...(prev ?? []), ...r.list]));
        setTotal(r.total);
      })
      .catch(() => setRows((prev) => prev ?? []));
  }, [page, points]);
  if (!rows) return null;
  if (rows.length === 0) return <Typography color="text.secondary">{t("rewards.history.none")}</Typography>;

  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  return (
    <Box sx={{ display: "grid", gap: 0.5 }} data-testid="credit-history">
      {rows.map((r) => (
        <Box
          key={r.id}
          data-testid="credit-movement"
          data-reason={r.reason}
          sx={{ display: "flex", alignItems: "center", gap: 1, py: 1, borderBottom: "1px solid", borderColor: "divider" }}
        >
          <Box sx={{ flex: "1 1 auto", minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }}>{t(`rewards.history.label.${r.label}`)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {date(r.created_at)} · {t("rewards.history.after", { count: r.balance_after })}
            </Typography>
          </Box>
          <Typography sx={{ fontWeight: 700, color: r.delta > 0 ? "success.main" : "text.primary", whiteSpace: "nowrap" }}>
            {r.delta > 0 ? `+${r.delta}` : `−${Math.abs(r.delta)}`}
          </Typography>
        </Box>
      ))}
      {rows.length < total && (
        <Button onClick={() => setPage((p) => p + 1)} data-testid="credit-history-more">
          {t("rewards.history.more")}
        </Button>
      )}
    </Box>
  );
}
