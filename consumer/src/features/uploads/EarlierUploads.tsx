import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Typography from "@mui/material/Typography";
import AudiotrackIcon from "@mui/icons-material/Audiotrack";
import MovieIcon from "@mui/icons-material/Movie";
import { useTranslation } from "react-i18next";
import { USABLE_SCREENING_STATUSES } from "../../../../server/src/contract/screening.ts";
import type { UploadKind } from "../../../../server/src/contract/uploads.ts";
import { earlierUploads, type UploadResult } from "./uploads.api.ts";

const USABLE: readonly (string | null)[] = [null, ...USABLE_SCREENING_STATUSES];

/**
 * Issue 30: the person's earlier uploads of a kind, offered before a new upload (each already carries its consent
 * attestation and passed screening). Nothing is shown while loading, on failure or when there are none; uploads that
 * screening holds or rejected are left out, since a submit would refuse them.
 */
export function EarlierUploads({ kind, onPick }: { kind: UploadKind; onPick: (upload: UploadResult) => void }) {
  const { t } = useTranslation();
  const [list, setList] = useState<UploadResult[]>([]);

  useEffect(() => {
    let live = true;
    earlierUploads(kind)
      .then((l) => live && setList(l.filter((u) => USABLE.includes(u.review))))
      .catch(() => live && setList([]));
    return () => {
      live = false;
    };
  }, [kind]);

  if (list.length === 0) return null;
  const Icon = kind === "audio" ? AudiotrackIcon : MovieIcon;
  return (
    <Box data-testid={`earlier-${kind}`} sx={{ mb: 1.5, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {t("uploader.earlier")}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, overflowX: "auto", pt: 0.5, pb: 0.5 }}>
        {list.map((u, i) => (
          <ButtonBase
            key={u.id}
            onClick={() => onPick(u)}
            aria-label={t("uploader.earlierItem", { n: i + 1 })}
            data-testid="earlier-item"
            sx={{
              flex: "0 0 auto",
              width: 72,
              height: 72,
              borderRadius: 2,
              overflow: "hidden",
              border: 1,
              borderColor: "divider",
              display: "grid",
              placeItems: "center",
            }}
          >
            {u.thumb_url || kind === "image" ? (
              <Box component="img" src={u.thumb_url ?? u.file_url} alt="" loading="lazy" sx={{ width: "100%", height: "100%", objectFit: "cover" }} />
            ) : (
              <Box sx={{ display: "grid", placeItems: "center", color: "text.secondary" }}>
                <Icon sx={{ color: "primary.main" }} />
                <Typography variant="caption">{u.duration !== null ? t("uploader.earlierLength", { seconds: u.duration.toFixed(1) }) : ""}</Typography>
              </Box>
            )}
          </ButtonBase>
        ))}
      </Box>
    </Box>
  );
}
