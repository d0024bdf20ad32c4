import { useCallback, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CUSTOM_REQUEST_TEXT_MAX } from "../../../../server/src/contract/creators.ts";
import { DISPUTE_REASON_MAX } from "../../../../server/src/contract/creator-payouts.ts";
import { translateMessage } from "../../i18n/index.ts";
import { session } from "../session/session.ts";
import { creatorsApi, type CreatorPageView, type CustomRequestView } from "./creators.api.ts";
import { payoutsApi } from "./payouts.api.ts";
import { useSpendConfirm } from "./SpendConfirm.tsx";
import { useFinishedCreations } from "./Publish.tsx";

const newKey = () => crypto.randomUUID();

function RequestRow({ r, children }: { r: CustomRequestView; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="request-row" data-status={r.status} sx={{ display: "grid", gap: 1, p: 1.5, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, alignItems: "center" }}>
        <Chip
          size="small"
          label={t(`creators.requestStatus.${r.status}`)}
          color={r.status === "delivered" ? "success" : r.status === "pending" || r.status === "accepted" ? "primary" : "default"}
        />
        <Typography variant="body2" color="text.secondary">
          {t("creators.credits", { count: r.price })}
        </Typography>
      </Box>
      <Typography sx={{ overflowWrap: "anywhere", whiteSpace: "pre-line" }}>{r.text}</Typography>
      {children}
    </Box>
  );
}

/** A fan unhappy with a delivery disputes it with a short reason; staff refund the fan or uphold the delivery. */
function Dispute({ r, onDone }: { r: CustomRequestView; onDone: (error?: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  if (r.dispute_status)
    return (
      <Typography variant="body2" color="text.secondary" data-testid="dispute-status">
        {t(`creators.disputeStatus.${r.dispute_status}`)}
      </Typography>
    );
  if (!open)
    return (
      <Button size="small" color="warning" onClick={() => setOpen(true)} data-testid="dispute-open" sx={{ justifySelf: "start" }}>
        {t("creators.disputeOpen")}
      </Button>
    );
  async function send() {
    try {
      await payoutsApi.dispute(r.id, reason);
      onDone();
    } catch (e) {
      onDone(translateMessage((e as Error).message));
    }
  }
  return (
    <Box sx={{ display: "grid", gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {t("creators.disputeHelp")}
      </Typography>
      <TextField
        size="small"
        label={t("creators.disputeReason")}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: DISPUTE_REASON_MAX, "data-testid": "dispute-reason" } }}
      />
      <Button
        size="small"
        variant="contained"
        color="warning"
        disabled={reason.trim().length < 3}
        onClick={() => void send()}
        data-testid="dispute-send"
        sx={{ justifySelf: "start" }}
      >
        {t("creators.disputeSend")}
      </Button>
    </Box>
  );
}

/** A fan's side: ask for a custom creation (its price held until delivery), see one's requests, rate deliveries. */
export function FanRequests({ page, signedIn, onSignIn }: { page: CreatorPageView; signedIn: boolean; onSignIn: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [key, setKey] = useState(newKey);
  const [mine, setMine] = useState<CustomRequestView[]>([]);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const load = useCallback(() => {
    if (signedIn)
      creatorsApi.requests("fan").then(
        (list) => setMine(list.filter((r) => r.home_link === page.home_link)),
        () => setMine([]),
      );
  }, [signedIn, page.home_link]);
  useEffect(load, [load]);

  const spend = useSpendConfirm();
  /** The request's price is held once confirmed, as every spend on a creator is; a short balance opens the buy dialog. */
  function send() {
    if (!signedIn) return onSignIn();
    setStatus(null);
    spend.confirm({
      what: t("creators.spend.request", { name: page.title }),
      amount: page.request_price ?? 0,
      held: true,
      pay: async () => {
        await creatorsApi.request(page.home_link, text, key);
        setText("");
        setKey(newKey());
        setStatus({ ok: true, text: t("creators.requestSent", { count: page.request_price ?? 0 }) });
        load();
      },
      onShort: (text) => setStatus({ ok: false, text }),
    });
  }

  async function rate(id: number, satisfied: boolean) {
    try {
      await creatorsApi.rate(id, satisfied);
      load();
    } catch (e) {
      setStatus({ ok: false, text: translateMessage((e as Error).message) });
    }
  }

  return (
    <Box component="section" data-testid="fan-requests" sx={{ display: "grid", gap: 1.5, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">
        {t("creators.requestTitle", { count: page.request_price ?? 0 })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("creators.requestHelp")}
      </Typography>
      <TextField
        label={t("creators.requestText")}
        value={text}
        onChange={(e) => setText(e.target.value)}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: CUSTOM_REQUEST_TEXT_MAX, "data-testid": "request-text" } }}
      />
      {status && (
        <Alert severity={status.ok ? "success" : "error"} data-testid="request-status">
          {status.text}
        </Alert>
      )}
      <Button variant="contained" disabled={!text.trim()} onClick={send} data-testid="request-send" sx={{ justifySelf: "start" }}>
        {t("creators.requestSend")}
      </Button>
      {mine.map((r) => (
        <RequestRow key={r.id} r={r}>
          {r.status === "delivered" && r.satisfied === null && (
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Button size="small" variant="outlined" onClick={() => void rate(r.id, true)} data-testid="rate-satisfied">
                {t("creators.rateSatisfied")}
              </Button>
              <Button size="small" onClick={() => void rate(r.id, false)} data-testid="rate-unsatisfied">
                {t("creators.rateUnsatisfied")}
              </Button>
            </Box>
          )}
          {r.satisfied !== null && (
            <Typography variant="body2" color="text.secondary">
              {t(r.satisfied ? "creators.ratedSatisfied" : "creators.ratedUnsatisfied")}
            </Typography>
          )}
          {r.status === "delivered" && r.satisfied === false && (
            <Dispute
              r={r}
              onDone={(error) => {
                if (error) setStatus({ ok: false, text: error });
                load();
                void session.refreshBalance();
              }}
            />
          )}
        </RequestRow>
      ))}
      {spend.dialog}
    </Box>
  );
}

/** The creator's side: requests to the page, accepted or declined, and delivered as one of the creator's finished creations. */
export function CreatorRequests() {
  const { t } = useTranslation();
  const { tasks: creations } = useFinishedCreations();
  const [requests, setRequests] = useState<CustomRequestView[]>([]);
  const [chosen, setChosen] = useState<Record<number, number>>({});
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => creatorsApi.requests("creator").then(setRequests, () => setRequests([])), []);
  useEffect(() => void load(), [load]);

  async function run(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      await load();
      // a delivery adds the request's price to the creator's balance
      void session.refreshBalance();
    } catch (e) {
      setError(translateMessage((e as Error).message));
    }
  }

  return (
    <Box component="section" data-testid="creator-requests" sx={{ display: "grid", gap: 1.5 }}>
      <Typography variant="h6" component="h2">
        {t("creators.incoming")}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {requests.length === 0 && <Typography color="text.secondary">{t("creators.noIncoming")}</Typography>}
      {requests.map((r) => (
        <RequestRow key={r.id} r={r}>
          {r.dispute_status && (
            <Typography variant="body2" color={r.dispute_status === "open" ? "warning.main" : "text.secondary"} data-testid="creator-dispute-status">
              {t(`creators.creatorDispute.${r.dispute_status}`)}
            </Typography>
          )}
          {r.status === "pending" && (
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Button size="small" variant="contained" onClick={() => void run(() => creatorsApi.answer("acceptRequest", r.id))} data-testid="request-accept">
                {t("creators.accept")}
              </Button>
              <Button size="small" onClick={() => void run(() => creatorsApi.answer("declineRequest", r.id))} data-testid="request-decline">
                {t("creators.decline")}
              </Button>
            </Box>
          )}
          {r.status === "accepted" && (
            <Box sx={{ display: "grid", gap: 1 }}>
              <TextField
                select
                size="small"
                label={t("creators.deliverPick")}
                value={chosen[r.id] ?? ""}
                onChange={(e) => setChosen({ ...chosen, [r.id]: Number(e.target.value) })}
                slotProps={{ htmlInput: { "data-testid": "deliver-pick" } }}
              >
                {creations.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {t("creators.creation", { id: c.id })}
                  </MenuItem>
                ))}
              </TextField>
              <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
                <Button
                  size="small"
                  variant="contained"
                  disabled={!chosen[r.id]}
                  onClick={() => void run(() => creatorsApi.deliver(r.id, chosen[r.id]))}
                  data-testid="request-deliver"
                >
                  {t("creators.deliver")}
                </Button>
                <Button size="small" onClick={() => void run(() => creatorsApi.answer("declineRequest", r.id))}>
                  {t("creators.decline")}
                </Button>
              </Box>
            </Box>
          )}
        </RequestRow>
      ))}
    </Box>
  );
}
