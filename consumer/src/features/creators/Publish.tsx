import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { LIBRARY_PAGE_SIZE, type LibraryVisibility } from "../../../../server/src/contract/creators.ts";
import { translateMessage } from "../../i18n/index.ts";
import type { Task } from "../generation/generation.api.ts";
import { creatorsApi, type CreatorPageView } from "./creators.api.ts";
import { appendNew, MoreButton, tileSx } from "./Library.tsx";

// The creator's own side of the library: loaded with their panels (CreatorTools), never with a fan's view of the page.

/**
 * The creator's own finished creations, newest first (what can be published, or delivered for a request), a page at a
 * time: `more` loads the next while `hasMore`.
 */
export function useFinishedCreations(): { tasks: Task[]; hasMore: boolean; more: () => void } {
  const [tasks, setTasks] = useState<Task[]>([]);
  const [total, setTotal] = useState(0);
  const [pages, setPages] = useState(1);
  useEffect(() => {
    let live = true;
    creatorsApi.finishedCreations(pages, LIBRARY_PAGE_SIZE).then(
      (p) => {
        if (!live) return;
        setTasks((shown) => (pages === 1 ? p.list : appendNew(shown, p.list)));
        setTotal(p.total);
      },
      () => live && pages === 1 && setTasks([]),
    );
    return () => {
      live = false;
    };
  }, [pages]);
  return { tasks, hasMore: pages * LIBRARY_PAGE_SIZE < total, more: () => setPages((p) => p + 1) };
}

/** How the caller's page shows each of these creations, asked 50 at a time (the API's most), again when the page changes. */
function usePublished(creations: Task[], page: CreatorPageView): Map<number, LibraryVisibility> {
  const [published, setPublished] = useState(new Map<number, LibraryVisibility>());
  const ids = creations.map((c) => c.id).join(",");
  useEffect(() => {
    const all = ids ? ids.split(",").map(Number) : [];
    let live = true;
    const chunks = Array.from({ length: Math.ceil(all.length / 50) }, (_, i) => all.slice(i * 50, i * 50 + 50));
    Promise.all(chunks.map((c) => creatorsApi.myItems(c))).then(
      (lists) => live && setPublished(new Map(lists.flat().map((i) => [i.task_id, i.visibility]))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ids, page]);
  return published;
}

/** The creator publishes finished creations to the page, public or members-only (one already there can change). */
export function PublishCreations({ page, onChanged }: { page: CreatorPageView; onChanged: () => void }) {
  const { t } = useTranslation();
  const { tasks: creations, hasMore, more } = useFinishedCreations();
  const [error, setError] = useState<string | null>(null);
  const published = usePublished(creations, page);
  async function publish(taskId: number, visibility: LibraryVisibility) {
    setError(null);
    try {
      await creatorsApi.publishItem(taskId, visibility);
      onChanged();
    } catch (e) {
      setError(translateMessage((e as Error).message));
    }
  }
  return (
    <Box component="section" data-testid="publish-creations" sx={{ display: "grid", gap: 1.5, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">
        {t("creators.publishTitle")}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("creators.publishHelp")}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {creations.length === 0 && <Typography color="text.secondary">{t("creators.noCreations")}</Typography>}
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(2, minmax(0, 1fr))", gap: 1 }}>
        {creations.map((c) => {
          const now = published.get(c.id);
          return (
            <Box key={c.id} data-testid="creation" sx={{ display: "grid", gap: 0.5, alignContent: "start" }}>
              <Box component="img" src={c.poster_url ?? c.image_urls?.[0] ?? undefined} alt="" loading="lazy" sx={{ ...tileSx, aspectRatio: "1 / 1" }} />
              {now && (
                <Typography variant="caption" color="text.secondary">
                  {t(now === "members" ? "creators.publishedMembers" : "creators.publishedPublic")}
                </Typography>
              )}
              {now !== "public" && (
                <Button size="small" variant="outlined" onClick={() => void publish(c.id, "public")} data-testid="publish-public">
                  {t("creators.publishPublic")}
                </Button>
              )}
              {now !== "members" && (
                <Button size="small" variant="outlined" onClick={() => void publish(c.id, "members")} data-testid="publish-members">
                  {t("creators.publishMembers")}
                </Button>
              )}
            </Box>
          );
        })}
      </Box>
      {hasMore && <MoreButton label={t("creators.publishMore")} onClick={more} testId="publish-more" />}
    </Box>
  );
}
