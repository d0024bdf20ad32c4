import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { FollowUp } from "../../../../server/src/contract/generation.ts";
import { translateMessage } from "../../i18n/index.ts";
import { followUpQuote, submitFollowUp, type FollowUpQuote, type Task } from "./generation.api.ts";
import { useSubmitTask } from "./useSubmitTask.ts";

/** The extensions offered, in seconds; those past the clip's 40 s cap are left out. */
const EXTEND_SECONDS = [2, 5, 10];

type Source = Pick<Task, "id" | "follow_ups">;

/** "Extended from #12" / "1080p of #12": where a follow-up came from. */
export function FollowUpOrigin({ task }: { task: Pick<Task, "follow_up" | "follow_up_of"> }) {
  const { t } = useTranslation();
  if (!task.follow_up || !task.follow_up_of) return null;
  return (
    <Typography variant="caption" color="text.secondary" data-testid="follow-up-origin">
      {t(`results.followUp.from.${task.follow_up}`, { id: task.follow_up_of })}
    </Typography>
  );
}

/**
 * The confirmation of a follow-up: its price from the server before anything is charged (for an extension, at the
 * length chosen), or the reason it cannot run; one idempotency key per confirmation, so a double tap charges once.
 */
function FollowUpDialog({ task, kind, onClose, onDone }: { task: Source; kind: FollowUp; onClose: () => void; onDone: (id: number) => void }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(5);
  const [quote, setQuote] = useState<FollowUpQuote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const { error, busy, submit } = useSubmitTask(onDone);
  const duration = kind === "extend" ? seconds : undefined;

  useEffect(() => {
    let live = true;
    setQuote(null);
    setQuoteError(null);
    followUpQuote({ source_id: task.id, kind, duration })
      .then((q) => live && setQuote(q))
      .catch((e: Error) => live && setQuoteError(translateMessage(e.message)));
    return () => {
      live = false;
    };
  }, [task.id, kind, duration]);

  // the lengths this clip still takes under the 40 s cap (its remaining seconds where that is under the shortest)
  const max = quote?.max_duration ?? Number.POSITIVE_INFINITY;
  const fitting = EXTEND_SECONDS.filter((s) => s <= max);
  const choices = fitting.length || max < 1 ? fitting : [max];
  useEffect(() => {
    if (kind === "extend" && choices.length && !choices.includes(seconds)) setSeconds(choices.at(-1)!);
  }, [kind, choices, seconds]);
  const reason = quoteError ?? (quote && !quote.available && quote.reason ? translateMessage(quote.reason) : null);
  return (
    <Dialog
      open
      onClose={onClose}
      data-testid="follow-up-dialog"
      data-kind={kind}
      slotProps={{ paper: { sx: { mx: 1.5, width: "calc(100% - 24px)", maxWidth: 420 } } }}
    >
      <DialogContent sx={{ display: "grid", gap: 1.5 }}>
        <Typography variant="h6">{t(`results.followUp.title.${kind}`)}</Typography>
        <Typography color="text.secondary">{t(`results.followUp.body.${kind}`)}</Typography>
        {kind === "extend" && (
          <ToggleButtonGroup
            exclusive
            size="small"
            value={seconds}
            onChange={(_e, v: number | null) => v && setSeconds(v)}
            aria-label={t("results.followUp.length")}
          >
            {choices.map((s) => (
              <ToggleButton key={s} value={s} data-testid={`extend-${s}`}>
                {t("results.followUp.seconds", { n: s })}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
        {reason ? (
          <Alert severity="info" data-testid="follow-up-reason">
            {reason}
          </Alert>
        ) : (
          <Typography data-testid="follow-up-price">{quote ? t("studio.price", { count: quote.points }) : t("studio.priceUnknown")}</Typography>
        )}
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button
          variant="contained"
          disabled={!quote?.available || busy}
          data-testid="follow-up-confirm"
          onClick={() => void submit((key) => submitFollowUp({ source_id: task.id, kind, duration, idempotency_key: key }))}
        >
          {t(`results.followUp.confirm.${kind}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** "Extend" and "1080p" on a finished result that can take them (issue 33 items 5 and 6), each confirmed with its price first. */
export function FollowUpActions({ task, onDone }: { task: Source; onDone: (id: number) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<FollowUp | null>(null);
  // the server says which follow-ups this result can take now: none on a local draft, none its engine cannot run (issue 46 item 9)
  const kinds = task.follow_ups;
  if (!kinds.length) return null;
  return (
    <>
      {kinds.map((kind) => (
        <Button key={kind} size="small" onClick={() => setOpen(kind)} data-testid={`follow-up-${kind}`} sx={{ minWidth: 0, px: 0.75 }}>
          {t(`results.followUp.action.${kind}`)}
        </Button>
      ))}
      {open && (
        <FollowUpDialog
          task={task}
          kind={open}
          onClose={() => setOpen(null)}
          onDone={(id) => {
            setOpen(null);
            onDone(id);
          }}
        />
      )}
    </>
  );
}
