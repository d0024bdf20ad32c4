import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { creatorsApi, type TipView } from "./creators.api.ts";
import type { Side } from "../../../../server/src/contract/sides.ts";

/** The caller's tips, newest first (docs/decisions/304): sent as a fan (to whom), or received on their page; with messages. */
function TipList({ as }: { as: Side }) {
  const { t, i18n } = useTranslation();
  const [tips, setTips] = useState<TipView[] | null>(null);
  useEffect(() => {
    creatorsApi.tips(as).then(setTips, () => setTips([]));
  }, [as]);
  if (!tips) return null;
  if (tips.length === 0) return <Typography color="text.secondary">{t(as === "fan" ? "creators.tipsNoneSent" : "creators.tipsEmpty")}</Typography>;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(iso));
  return (
    <Box sx={{ display: "grid", gap: 1 }} data-testid={`tips-${as}`}>
      {tips.map((tip) => (
        <Box
          key={tip.id}
          data-testid="tip-row"
          data-status={tip.status}
          sx={{ display: "grid", gap: 0.5, p: 1, border: 1, borderColor: "divider", borderRadius: 1.5 }}
        >
          <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, flexWrap: "wrap" }}>
            <Typography sx={{ fontWeight: 600, textDecoration: tip.status === "reversed" ? "line-through" : "none", overflowWrap: "anywhere" }}>
              {as === "fan" ? t("creators.tipTo", { count: tip.amount, name: tip.creator }) : t("creators.credits", { count: tip.amount })}
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

/** The tips fans sent to the creator's page, beside the earnings they count in. */
export function TipsReceived() {
  const { t } = useTranslation();
  return (
    <Box component="section" data-testid="creator-tips" sx={{ display: "grid", gap: 1, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">
        {t("creators.tipsTitle")}
      </Typography>
      <TipList as="creator" />
    </Box>
  );
}

/** The account area's section of the tips the person sent (a reversed one shows as such: its credits came back). */
export default function TipsSent() {
  return <TipList as="fan" />;
}
