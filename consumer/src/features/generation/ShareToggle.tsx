import { useState } from "react";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import PublicIcon from "@mui/icons-material/Public";
import ShareIcon from "@mui/icons-material/Share";
import { useTranslation } from "react-i18next";
import { setTaskPublic, type Task } from "./generation.api.ts";

/** Shares a finished creation in the home gallery or makes it private again; `compact` for a table row. */
export function ShareToggle({ task, compact = false }: { task: Pick<Task, "id" | "public">; compact?: boolean }) {
  const { t } = useTranslation();
  const [shared, setShared] = useState(task.public === 1);
  const [busy, setBusy] = useState(false);

  async function toggle() {
    setBusy(true);
    try {
      const res = await setTaskPublic(task.id, !shared);
      setShared(res.public === 1);
    } catch {
      // the API client has already shown the error
    } finally {
      setBusy(false);
    }
  }

  const label = shared ? t("share.unshare") : t("share.share");
  // not yet shared: the share icon says what the button does (a crossed-out icon read as "hidden" or "blocked")
  const icon = shared ? <PublicIcon fontSize="small" color="primary" /> : <ShareIcon fontSize="small" />;
  const common = { onClick: () => void toggle(), disabled: busy, "data-testid": "share-toggle", "data-shared": shared ? "1" : "0" };
  if (compact) {
    return (
      <Tooltip title={label}>
        <span>
          <IconButton size="small" aria-label={label} aria-pressed={shared} {...common}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button variant={shared ? "contained" : "outlined"} color="secondary" startIcon={icon} aria-pressed={shared} {...common}>
      {shared ? t("share.shared") : t("share.share")}
    </Button>
  );
}
