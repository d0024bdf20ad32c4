import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import BlockIcon from "@mui/icons-material/Block";
import { Link as RouterLink } from "react-router";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import type { Quote } from "../generation/generation.api.ts";
import { trainingApi, type CharacterModelView } from "./training.api.ts";
import { useTrainingAvailable } from "./useTrainingAvailable.ts";

export type PickedModel = Pick<CharacterModelView, "id" | "name" | "cover_url">;

const TILE = 76;

function Tile({
  selected,
  label,
  onClick,
  testId,
  children,
}: {
  selected: boolean;
  label: string;
  onClick: () => void;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <ButtonBase
      onClick={onClick}
      aria-pressed={selected}
      data-testid={testId}
      data-selected={selected ? "1" : "0"}
      sx={{
        flex: "0 0 auto",
        width: TILE,
        display: "grid",
        gap: 0.5,
        justifyItems: "center",
        p: 0.5,
        borderRadius: 2,
        border: 2,
        borderColor: selected ? "primary.main" : "transparent",
      }}
    >
      <Box sx={{ width: TILE - 16, height: TILE - 16, borderRadius: 1.5, overflow: "hidden", display: "grid", placeItems: "center", bgcolor: "action.hover" }}>
        {children}
      </Box>
      <Typography variant="caption" noWrap sx={{ maxWidth: TILE - 8, fontWeight: selected ? 700 : 400 }}>
        {label}
      </Typography>
    </ButtonBase>
  );
}

/**
 * The person's own trained character models (SPEC §7 getLoraCharacterList, status success, still usable): one or
 * none, sent by the creator as `role_id`. With none trained it points at the wizard; if the list cannot be read it
 * shows nothing, so creating without a model is never blocked. The quote of the request with the picked model says
 * why it cannot run where it cannot (a Flux character in a video, decision 395): told under the picker, where it was chosen.
 */
export function ModelPicker({ value, onChange, quote }: { value: PickedModel | null; onChange: (model: PickedModel | null) => void; quote: Quote | null }) {
  const { t } = useTranslation();
  const trainable = useTrainingAvailable();
  /** undefined while loading, null when the list cannot be read */
  const [models, setModels] = useState<CharacterModelView[] | null | undefined>(undefined);

  useEffect(() => {
    let live = true;
    trainingApi.usable().then(
      (r) => live && setModels(r.list.filter((m) => m.usable)),
      () => live && setModels(null),
    );
    return () => {
      live = false;
    };
  }, []);

  // nothing to pick and no way to make one here: no picker at all (issue 46 item 10)
  if (models === null || (models?.length === 0 && trainable === false)) return null;
  // while loading, the newcomer's outcome (no model yet) holds its place unseen: the photo box and its consent box
  // below do not jump down under a tap when the list arrives
  const loading = models === undefined || trainable === undefined;
  const refused = value && quote?.available === false && quote.reason ? translateMessage(quote.reason) : null;
  return (
    <Box data-testid={loading ? undefined : "model-picker"} aria-hidden={loading || undefined} sx={{ minWidth: 0, visibility: loading ? "hidden" : undefined }}>
      <Typography variant="caption" color="text.secondary">
        {t("studio.modelPicker.label")}
      </Typography>
      {loading || models.length === 0 ? (
        <Typography variant="body2" data-testid={loading ? undefined : "model-picker-empty"} sx={{ mt: 0.5 }}>
          {t("studio.modelPicker.none")}{" "}
          {trainable && (
            <Link component={RouterLink} to="/training" data-testid="model-picker-train">
              {t("studio.modelPicker.train")}
            </Link>
          )}
        </Typography>
      ) : (
        <Box role="group" aria-label={t("studio.modelPicker.label")} sx={{ display: "flex", gap: 1, overflowX: "auto", pb: 0.5, mt: 0.5 }}>
          <Tile selected={!value} label={t("studio.modelPicker.noModel")} onClick={() => onChange(null)} testId="model-choice-none">
            <BlockIcon color="action" />
          </Tile>
          {models.map((m) => (
            <Tile
              key={m.id}
              selected={value?.id === m.id}
              label={m.name}
              onClick={() => onChange({ id: m.id, name: m.name, cover_url: m.cover_url })}
              testId="model-choice"
            >
              {m.cover_url && <Box component="img" src={m.cover_url} alt="" sx={{ width: 1, height: 1, objectFit: "cover" }} />}
            </Tile>
          ))}
        </Box>
      )}
      {refused && (
        <Alert severity="info" sx={{ mt: 1, borderRadius: 3 }} data-testid="model-refused">
          {refused}
        </Alert>
      )}
    </Box>
  );
}
