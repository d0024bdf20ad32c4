import { useCallback, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { creatorsApi, type OwnPageView } from "../creators/creators.api.ts";
import { DeleteModel } from "./DeleteModel.tsx";
import { trainingMessage } from "./messages.ts";
import { trainingApi, type CharacterModelView } from "./training.api.ts";

const REFRESH_MS = 10_000;

/** SPEC.md §3 list columns: cover image, name, status (with progress and time left while training). */
export function ModelList({ refreshKey }: { refreshKey: number }) {
  const { t } = useTranslation();
  const [models, setModels] = useState<CharacterModelView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // issue 16: a finished model can have the creator's public page, at its home link
  const [myPage, setMyPage] = useState<OwnPageView | null | undefined>(undefined);
  const navigate = useNavigate();
  const load = useCallback(
    () =>
      trainingApi.list().then(
        (r) => setModels(r.list),
        () => setModels([]),
      ),
    [],
  );

  useEffect(() => {
    creatorsApi.mine().then(setMyPage, () => setMyPage(null));
  }, []);

  async function publish(id: number) {
    setError(null);
    try {
      const page = await creatorsApi.publish(id);
      navigate(`/${page.home_link}`);
    } catch (e) {
      setError(trainingMessage((e as Error).message));
    }
  }

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, refreshKey]);

  async function cancel(id: number) {
    setError(null);
    try {
      await trainingApi.cancel(id);
      await load();
    } catch (e) {
      setError(trainingMessage((e as Error).message));
    }
  }

  if (!models) return <LinearProgress />;
  return (
    <Box data-testid="model-list" sx={{ display: "grid", gap: 1.5 }}>
      <Typography variant="h5" component="h2">
        {t("training.list.title")}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {models.length === 0 && <Typography color="text.secondary">{t("training.list.empty")}</Typography>}
      {models.map((m) => (
        <Box
          key={m.id}
          data-testid="model-row"
          sx={{
            display: "grid",
            gridTemplateColumns: "64px 1fr auto",
            gap: 1.5,
            alignItems: "center",
            p: 1,
            border: 1,
            borderColor: "divider",
            borderRadius: 2,
          }}
        >
          <Box
            component="img"
            src={m.cover_url ?? undefined}
            alt=""
            sx={{ width: 64, height: 64, objectFit: "cover", borderRadius: 1.5, bgcolor: "grey.200" }}
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography noWrap sx={{ fontWeight: 600 }}>
              {m.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              @{m.home_link}
            </Typography>
            {m.status === "doing" && (
              <Box sx={{ mt: 0.5 }}>
                <LinearProgress variant="determinate" value={m.progress} />
                <Typography variant="caption" color="text.secondary">
                  {t("training.list.eta", { minutes: Math.max(1, Math.ceil(m.eta_seconds / 60)) })}
                </Typography>
              </Box>
            )}
          </Box>
          <Box sx={{ display: "grid", gap: 0.5, justifyItems: "end" }}>
            <Chip
              size="small"
              data-testid="model-status"
              label={t(`training.status.${m.status}`)}
              color={m.status === "success" ? "success" : m.status === "failed" ? "error" : "default"}
            />
            {(m.status === "doing" || m.status === "review") && (
              <Button size="small" onClick={() => void cancel(m.id)}>
                {t("training.list.cancel")}
              </Button>
            )}
            <DeleteModel model={m} onDeleted={() => void load()} />
            {m.usable && myPage === null && (
              <Button size="small" variant="contained" onClick={() => void publish(m.id)} data-testid="model-publish">
                {t("creators.publish")}
              </Button>
            )}
            {myPage && myPage.role_id === m.id && (
              <Button size="small" component={RouterLink} to={`/${myPage.home_link}`} data-testid="model-open-page">
                {t("creators.openPage")}
              </Button>
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
