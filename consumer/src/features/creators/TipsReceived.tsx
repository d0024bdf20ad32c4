import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { creatorsApi, type TipView } from "./creators.api.ts";

/** The tips fans sent to the creator's page, newest first, with their messages (docs/decisions/304); shown beside the earnings they count in. */
export function TipsReceived() {
  const { t, i18n } = useTranslation();
  const [tips, setTips] = useState<TipView[] | null>(null);
  useEffect(() => {
    creatorsApi.tips("creator").then(setTips, () => setTips([]));
  }, []);
  if (!tips) return null;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(iso));
  return (
    <Box component="section" data-testid="creator-tips" sx={{ display: "grid", gap: 1, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">
        {t("creators.tipsTitle")}
      </Typography>
      {tips.length === 0 && <Typography color="text.secondary">{t("creators.tipsEmpty")}</Typography>}
      {tips.map((tip) => (
        <Box
          key={tip.id}
          data-testid="tip-row"
          data-status={tip.status}
          sx={{ display: "grid", gap: 0.5, p: 1, border: 1, borderColor: "divider", borderRadius: 1.5 }}
        >
          <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, flexWrap: "wrap" }}>
            <Typography sx={{ fontWeight: 600, textDecoration: tip.status === "reversed" ? "line-through" : "none" }}>
              {t("creators.credits", { count: tip.amount })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {tip.status === "reversed" ? `${t("creators.tipReversed")} · ` : ""}
              {date(tip.created_at)}
            </Typography>
          </Box>
          {tip.message && <Typography sx={{ overflowWrap: "anywhere", whiteSpace: "pre-line" }}>{tip.message}</Typography>}
        </Box>
      ))}
    </Box>
  );
}
