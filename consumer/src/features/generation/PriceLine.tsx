import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import BoltIcon from "@mui/icons-material/Bolt";
import { useTranslation } from "react-i18next";
import { useEffect, useState } from "react";
import { useSession } from "../session/session.ts";
import { freeGenerations, type Quote } from "./generation.api.ts";
import { KEEP_CLEAR } from "../support/keep-clear.ts";

/**
 * What the request costs (from the server) next to what the user has. "Free video left" is shown only when the
 * server says a free generation pays for this very request; otherwise the balance it will be paid from.
 */
export function PriceLine({ quote }: { quote: Quote | null }) {
  const price = quote?.points ?? null;
  const { t } = useTranslation();
  const { user } = useSession();
  const [free, setFree] = useState(0);
  useEffect(() => {
    if (user) freeGenerations().then(setFree, () => setFree(0));
  }, [user?.id, user?.points]);
  const freeApplies = free > 0 && quote?.free_applies === true;
  return (
    <Box
      {...KEEP_CLEAR}
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: "space-between",
        gap: 1.5,
        p: 2,
        borderRadius: 3,
        bgcolor: "rgba(167,139,250,0.08)",
        border: 1,
        borderColor: "rgba(167,139,250,0.25)",
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <BoltIcon sx={{ color: "secondary.main" }} />
        {quote?.available === false ? (
          <Typography fontWeight={700} color="warning.main" data-testid="price-unavailable">
            {t("templates.unavailable")}
          </Typography>
        ) : (
          <Typography fontWeight={700} data-testid="price" data-price={price ?? ""}>
            {price === null ? t("studio.priceUnknown") : t("studio.price", { count: price })}
          </Typography>
        )}
      </Box>
      {user && (
        <Typography
          variant="body2"
          color={freeApplies ? "success.main" : "text.secondary"}
          data-testid="free-left"
          data-free={freeApplies ? 1 : 0}
          sx={{ textAlign: "right" }}
        >
          {freeApplies ? t("studio.freeLeft", { count: free }) : t("studio.youHave", { count: user.points })}
        </Typography>
      )}
    </Box>
  );
}
