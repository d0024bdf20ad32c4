import { useCallback, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { dialogs } from "../dialogs/dialog-store.ts";
import { creatorsApi, type OwnPageView } from "../features/creators/creators.api.ts";
import type { Attachable } from "../features/messages/Composer.tsx";
import { followMessages, messagesApi, type Side, type ThreadView } from "../features/messages/messages.api.ts";
import { ThreadList } from "../features/messages/ThreadList.tsx";
import { ThreadPane, type Opened } from "../features/messages/ThreadPane.tsx";
import { ToAllMembers } from "../features/messages/ToAllMembers.tsx";
import { useSession } from "../features/session/session.ts";

/**
 * /messages (issue 32 item 6): the caller's threads as a fan, and as a creator those of their page; the open thread
 * beside the list from tablets up, in its place on a phone. `?to=<home link>` opens a fan's first message to a page.
 * New messages arrive over the account's event stream and the open thread and the list are read again.
 */
export function Component() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  // undefined until the caller's own page is known: the tabs and "to all members" it brings sit above the list
  const [page, setPage] = useState<OwnPageView | null | undefined>(undefined);
  const [as, setAs] = useState<Side>(params.get("as") === "creator" ? "creator" : "fan");
  const [threads, setThreads] = useState<ThreadView[] | null>(null);
  const [version, setVersion] = useState(0);
  const open = Number(params.get("t")) || null;
  const to = params.get("to");
  const opened: Opened | null = open ? { threadId: open } : to ? { homeLink: to, title: to } : null;
  const saved = user !== null && user.type !== "visitor";

  const reload = useCallback(
    () =>
      void messagesApi.threads(as).then(
        (r) => setThreads(r.list),
        () => setThreads([]),
      ),
    [as],
  );
  useEffect(() => {
    if (!saved) return;
    reload();
    void creatorsApi.mine().then(setPage, () => setPage(null));
  }, [saved, reload]);
  useEffect(() => {
    if (!saved) return;
    const abort = new AbortController();
    void messagesApi.mediaPass().catch(() => undefined);
    followMessages(() => {
      setVersion((v) => v + 1);
      reload();
    }, abort.signal).catch(() => undefined);
    return () => abort.abort();
  }, [saved, reload]);

  const select = (id: number | null) => setParams(id ? { t: String(id), ...(as === "creator" ? { as } : {}) } : as === "creator" ? { as } : {});
  const items: Attachable[] = (page?.library ?? []).map((i) => ({ id: i.id, kind: i.kind === "video" ? "video" : "image" }));

  if (!saved)
    return (
      <Box sx={{ maxWidth: 560, mx: "auto", px: 2, py: 4, display: "grid", gap: 2 }} data-testid="messages-guest">
        <Alert severity="info">{t("msg.saveAccountFirst")}</Alert>
        <Button variant="contained" onClick={() => dialogs.open("login")}>
          {t("login.saveAccount")}
        </Button>
      </Box>
    );

  return (
    <Box sx={{ display: "flex", maxWidth: 1200, mx: "auto", pb: 10 }} data-testid="messages-page">
      <Box
        sx={{
          width: { xs: "100%", md: 340 },
          display: { xs: opened ? "none" : "flex", md: "flex" },
          flexDirection: "column",
          borderRight: { md: 1 },
          borderColor: "divider",
          minHeight: 0,
        }}
      >
        <Typography variant="h5" component="h1" sx={{ px: 2, pt: 2 }}>
          {t("messages.title")}
        </Typography>
        {page && (
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            value={as}
            onChange={(_e, v: Side | null) => v && (setAs(v), setParams(v === "creator" ? { as: v } : {}))}
            sx={{ px: 2, pt: 1 }}
          >
            <ToggleButton value="fan" data-testid="messages-tab-fan">
              {t("messages.asFan")}
            </ToggleButton>
            <ToggleButton value="creator" data-testid="messages-tab-creator">
              {t("messages.asCreator")}
            </ToggleButton>
          </ToggleButtonGroup>
        )}
        {as === "creator" && page && <ToAllMembers items={items} onSent={reload} />}
        {/* shown with what goes above it, so that a row never moves from under a finger (or a click) */}
        <ThreadList threads={page === undefined ? null : threads} side={as} selected={open} onSelect={select} />
      </Box>
      <Box sx={{ flex: 1, minWidth: 0, display: { xs: opened ? "flex" : "none", md: "flex" }, flexDirection: "column", p: { xs: 1, md: 2 }, minHeight: 0 }}>
        {opened ? (
          <ThreadPane
            key={open ?? to}
            opened={opened}
            items={items}
            version={version}
            onBack={() => select(null)}
            onChanged={(id) => {
              reload();
              if (!open) select(id);
            }}
          />
        ) : (
          <Typography color="text.secondary" sx={{ m: "auto" }}>
            {t("messages.pick")}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
