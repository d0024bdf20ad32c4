import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ImageCreator } from "../features/generation/ImageCreator.tsx";
import { GuestGate } from "../features/generation/GuestGate.tsx";
import { TaskProgress } from "../features/generation/TaskProgress.tsx";
import { VideoCreator } from "../features/generation/VideoCreator.tsx";
import { STUDIO_MODES, type StudioMode } from "../../../server/src/contract/generation.ts";
import { useSession } from "../features/session/session.ts";
import { QuickTemplates } from "../features/templates/QuickTemplates.tsx";
import { getTemplates, type Template } from "../features/templates/templates.api.ts";
import { getGalleryItem } from "../features/gallery/gallery.api.ts";
import { remixOf, studioPlaceOf, type Remix } from "../features/generation/remix.ts";
import { uploadDetails, type UploadResult } from "../features/uploads/uploads.api.ts";

function isVideoMode(v: string | null): v is StudioMode {
  return v !== null && (STUDIO_MODES as readonly string[]).includes(v);
}

/** SPEC.md §2 creation studio: create videos, create images, quick templates. The task being watched lives in the URL so a reload keeps it. */
export function Component() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "images" ? "images" : "videos";
  const modeParam = params.get("mode");
  const mode: StudioMode = isVideoMode(modeParam) ? modeParam : "image_to_video";
  const taskId = Number(params.get("task")) || null;
  const [template, setTemplate] = useState<Template | null>(null);

  const update = (patch: Record<string, string | null>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(patch))
        if (v === null) next.delete(k);
        else next.set(k, v);
      return next;
    });

  // arriving from a template elsewhere (the home showcase): start with it chosen
  const templateParam = Number(params.get("template")) || null;
  useEffect(() => {
    if (!templateParam) return;
    getTemplates()
      .then((list) => {
        const tpl = list.find((x) => x.id === templateParam);
        if (tpl) chooseTemplate(tpl, { template: null });
      })
      .catch(() => null);
  }, [templateParam]);

  // "use these settings" from the gallery: the studio opens in that item's mode with its template and settings
  const remixParam = Number(params.get("remix")) || null;
  const [remix, setRemix] = useState<Remix | null>(null);
  useEffect(() => {
    if (!remixParam) {
      setRemix(null);
      return;
    }
    getGalleryItem(remixParam)
      .then(async (item) => {
        const r = remixOf(item);
        const place = studioPlaceOf(r.action);
        update({ tab: place.tab === "images" ? "images" : null, mode: place.mode, task: null });
        const tpl = r.templateId ? (await getTemplates().catch(() => [])).find((x) => x.id === r.templateId) : undefined;
        setTemplate(tpl ?? null);
        setRemix(r);
      })
      // a creation no longer shown: the studio opens as usual
      .catch(() => update({ remix: null }));
  }, [remixParam]);
  const waitingForRemix = remixParam !== null && remix?.id !== remixParam;

  // "make a video from this" in chat (issue 50): image to video with that picture as the photo
  const photoParam = Number(params.get("photo")) || null;
  const [startPhoto, setStartPhoto] = useState<UploadResult | null>(null);
  useEffect(() => {
    if (!photoParam) return setStartPhoto(null);
    // an answer for a photo no longer asked for (the param changed meanwhile) is dropped
    let live = true;
    uploadDetails(photoParam)
      .then((p) => live && setStartPhoto(p))
      .catch(() => live && update({ photo: null }));
    return () => {
      live = false;
    };
  }, [photoParam]);
  const waitingForPhoto = photoParam !== null && startPhoto?.id !== photoParam;

  function chooseTemplate(tpl: Template, patch: Record<string, string | null> = {}) {
    setTemplate(tpl);
    update({ ...patch, ...(isVideoMode(tpl.mode) ? { mode: tpl.mode === "image_to_video" ? null : tpl.mode } : {}) });
  }

  return (
    <Box sx={{ maxWidth: 1200, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 3, md: 5 } }}>
      <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 30, md: 42 } }}>
        {t("studio.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t("studio.subtitle")}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_e, v: string) => update({ tab: v === "images" ? "images" : null, task: null })}
        sx={{ mb: 3, "& .MuiTab-root": { flexShrink: { xs: 1, sm: 0 }, minWidth: { xs: 0, sm: 90 } } }}
      >
        <Tab value="videos" label={t("studio.createVideos")} data-testid="tab-videos" />
        <Tab value="images" label={t("studio.createImages")} data-testid="tab-images" />
      </Tabs>
      {remix && remixParam && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="remix-note">
          {t("gallery.remixNote", { name: remix.nickname })}
        </Alert>
      )}
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "minmax(0, 1.5fr) minmax(0, 1fr)" }, gap: 3, alignItems: "start" }}>
        <Box>
          {!user ? (
            <GuestGate />
          ) : taskId ? (
            <TaskProgress taskId={taskId} onAnother={() => update({ task: null })} onRerun={(id) => update({ task: String(id) })} />
          ) : waitingForRemix || waitingForPhoto ? null : tab === "images" ? (
            <ImageCreator key={remix?.id ?? "new"} remix={remix} onSubmitted={(id) => update({ task: String(id) })} />
          ) : (
            <VideoCreator
              key={remix?.id ?? startPhoto?.id ?? "new"}
              remix={remix}
              initialPhoto={startPhoto}
              mode={mode}
              onMode={(m) => update({ mode: m === "image_to_video" ? null : m })}
              template={template && template.mode === mode ? template : null}
              onTemplate={(tpl) => tpl && chooseTemplate(tpl)}
              onSubmitted={(id) => update({ task: String(id) })}
            />
          )}
        </Box>
        <QuickTemplates selectedId={template?.id ?? null} onChoose={(tpl) => chooseTemplate(tpl, { tab: null, task: null })} />
      </Box>
    </Box>
  );
}
