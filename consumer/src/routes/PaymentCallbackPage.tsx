import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import ErrorOutlineIcon from "@mui/icons-material/ErrorOutline";
import HourglassTopIcon from "@mui/icons-material/HourglassTop";
import { useTranslation } from "react-i18next";
import { useBlocker, useLocation, useNavigate, useSearchParams } from "react-router";
import { openBillingSupport } from "../features/support/billing-support.ts";
import { dialogs } from "../dialogs/dialog-store.ts";
import { getOrder } from "../features/payments/payments.api.ts";
import { providerOfCallbackPath } from "../features/payments/providers.ts";
import { MAX_TRIES, storedVerification, useVerification, verification } from "../features/payments/verification.ts";
import { useSession } from "../features/session/session.ts";

export const RETRY_COUNTDOWN_SECONDS = 10;

/** The order a provider sent the browser back for: from the return URL, else from the stored verification. */
function orderFromReturn(params: URLSearchParams, pathname: string): { orderId: string | number; provider: string; tries: number } | null {
  const stored = storedVerification();
  const fromUrl = params.get("order_id") ?? params.get("orderId");
  if (fromUrl && (!stored || String(stored.orderId) !== fromUrl))
    return { orderId: fromUrl, provider: params.get("provider") ?? providerOfCallbackPath(pathname), tries: 0 };
  return stored ? { orderId: stored.orderId, provider: stored.provider, tries: stored.tries } : null;
}

function useRetryCountdown(active: boolean): number {
  const [left, setLeft] = useState(RETRY_COUNTDOWN_SECONDS);
  useEffect(() => {
    if (!active) return;
    setLeft(RETRY_COUNTDOWN_SECONDS);
    const timer = setInterval(() => setLeft((s) => (s > 0 ? s - 1 : 0)), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return left;
}

/** "Try again" offers the product of the order that failed, not whatever the dialog would preselect. */
function retry(orderId: number | string | null): void {
  if (orderId === null) {
    dialogs.open("buyCredits");
    return;
  }
  getOrder(orderId).then(
    (order) => dialogs.buy(order.product_id),
    () => dialogs.open("buyCredits"),
  );
}

/** One result page for every provider's return route (SPEC.md §2); the provider decides only how the order is confirmed. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const v = useVerification();
  const { user } = useSession();
  const [known] = useState(() => orderFromReturn(params, pathname));
  const verifying = v.phase === "verifying";
  const unsuccessful = v.phase === "failed" || v.phase === "timeout";
  const countdown = useRetryCountdown(unsuccessful);

  useEffect(() => {
    if (known) void verification.start(known.orderId, known.provider, { tries: known.tries, paypalToken: params.get("token") ?? undefined });
  }, [known, params]);

  // SPEC.md §4: leaving while the payment is being verified asks first (in-app links and closing or reloading the tab)
  const blocker = useBlocker(verifying);
  useEffect(() => {
    if (!verifying) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [verifying]);

  const phase = known ? v.phase : "none";
  return (
    <Box sx={{ maxWidth: 520, mx: "auto", px: 2, py: { xs: 6, md: 10 } }}>
      <Paper sx={{ p: { xs: 3, md: 5 }, textAlign: "center", borderRadius: 5 }} data-testid="payment-result" data-phase={phase} data-status={v.status ?? ""}>
        {(phase === "verifying" || phase === "idle") && (
          <>
            <HourglassTopIcon sx={{ fontSize: 56, color: "primary.main" }} />
            <Typography variant="h5" sx={{ mt: 2 }}>
              {t("payment.verifying")}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {v.status === "3ds_pending" ? t("payment.threeDsPending") : t("payment.verifyingHint")}
            </Typography>
            <LinearProgress variant="determinate" value={(v.tries / MAX_TRIES) * 100} sx={{ mt: 3, height: 6, borderRadius: 3 }} />
            <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1 }} data-testid="payment-tries">
              {t("payment.tries", { tries: v.tries, max: MAX_TRIES })}
            </Typography>
          </>
        )}
        {phase === "paid" && (
          <>
            <CheckCircleIcon sx={{ fontSize: 56, color: "success.main" }} />
            <Typography variant="h5" sx={{ mt: 2 }}>
              {t("payment.paidTitle")}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {t("payment.paidBody", { count: user?.points ?? 0 })}
            </Typography>
            <Button variant="contained" size="large" sx={{ mt: 3 }} onClick={() => navigate("/creationStudio")} data-testid="payment-continue">
              {t("payment.startCreating")}
            </Button>
          </>
        )}
        {(unsuccessful || phase === "none") && (
          <>
            <ErrorOutlineIcon sx={{ fontSize: 56, color: "error.main" }} />
            <Typography variant="h5" sx={{ mt: 2 }} data-testid="payment-failed-message">
              {phase === "timeout" ? t("msg.paymentFailed") : phase === "none" ? t("payment.noOrder") : t("msg.paymentDidNotGoThrough")}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {t("payment.supportHint")}
            </Typography>
            <Box sx={{ display: "flex", gap: 1.5, justifyContent: "center", mt: 3, flexWrap: "wrap" }}>
              <Button
                variant="contained"
                disabled={countdown > 0 && phase !== "none"}
                onClick={() => retry(v.orderId ?? known?.orderId ?? null)}
                data-testid="payment-retry"
              >
                {countdown > 0 && phase !== "none" ? t("payment.retryIn", { seconds: countdown }) : t("payment.retry")}
              </Button>
              <Button variant="outlined" onClick={openBillingSupport} data-testid="payment-support">
                {t("payment.contactSupport")}
              </Button>
            </Box>
          </>
        )}
      </Paper>
      <Dialog open={blocker.state === "blocked"} onClose={() => blocker.reset?.()} data-testid="leave-warning">
        <DialogContent>
          <Typography variant="h6">{t("payment.leaveTitle")}</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t("payment.leaveBody")}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => blocker.reset?.()} data-testid="leave-stay">
            {t("payment.stay")}
          </Button>
          <Button color="error" onClick={() => blocker.proceed?.()} data-testid="leave-anyway">
            {t("payment.leave")}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
