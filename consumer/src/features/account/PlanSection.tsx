import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { MembershipCard } from "../payments/MembershipCard.tsx";

/** My plan: the plan bought, when it renews or ends, cancel and resume; an offer to buy one when there is none. */
export default function PlanSection() {
  const { t } = useTranslation();
  return (
    <MembershipCard
      empty={
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }} data-testid="no-plan">
          <Typography color="text.secondary" sx={{ flex: "1 1 200px" }}>
            {t("account.plan.none")}
          </Typography>
          <Button variant="outlined" onClick={() => dialogs.open("buyCredits")}>
            {t("account.plan.see")}
          </Button>
        </Box>
      }
    />
  );
}
