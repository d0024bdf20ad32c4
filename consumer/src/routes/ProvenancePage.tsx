import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { PROVENANCE_MESSAGES } from "../../../server/src/contract/provenance.ts";
import { checkProvenance, type ProvenanceAnswer } from "../features/provenance/provenance.api.ts";
import { ProvenanceResult } from "../features/provenance/ProvenanceResult.tsx";
import { translateMessage } from "../i18n/index.ts";

/**
 * /provenance: "Was this made with Reverie?" (issue 33 item 8). Anyone may check a picture, a video or a link to one;
 * the server answers from the file's Content Credentials, else from our outputs' fingerprints, and names no one.
 */
export function Component() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [link, setLink] = useState("");
  const [answer, setAnswer] = useState<ProvenanceAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function check() {
    const trimmed = link.trim();
    // one thing at a time: the file chosen last wins over a link typed before it, and the other way round
    if (!file && !trimmed) return setProblem(translateMessage(PROVENANCE_MESSAGES.fileOrLink));
    setBusy(true);
    setProblem(null);
    setAnswer(null);
    try {
      setAnswer(await checkProvenance(file ? { file } : { link: trimmed }));
    } catch (e) {
      setProblem(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 720, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }} data-testid="provenance-page">
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 34 }, overflowWrap: "anywhere" }}>
        {t("provenance.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3, lineHeight: 1.7 }}>
        {t("provenance.intro")}
      </Typography>
      <Paper sx={{ p: { xs: 2, md: 3 }, borderRadius: 4, display: "grid", gap: 2 }}>
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
          <Button variant="outlined" component="label">
            {t("provenance.file")}
            <input
              hidden
              type="file"
              accept="image/png,image/jpeg,image/webp,image/bmp,video/mp4"
              data-testid="provenance-file"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setLink("");
              }}
            />
          </Button>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere", minWidth: 0 }}>
            {file?.name ?? t("provenance.noFile")}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t("provenance.or")}
        </Typography>
        <TextField
          label={t("provenance.link")}
          value={link}
          onChange={(e) => {
            setLink(e.target.value);
            setFile(null);
          }}
          fullWidth
          slotProps={{ htmlInput: { maxLength: 2000, "data-testid": "provenance-link" } }}
        />
        {problem && (
          <Alert severity="error" data-testid="provenance-problem">
            {problem}
          </Alert>
        )}
        {answer && <ProvenanceResult answer={answer} />}
        <Box>
          <Button variant="contained" size="large" disabled={busy} onClick={() => void check()} data-testid="provenance-check">
            {t("provenance.check")}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
