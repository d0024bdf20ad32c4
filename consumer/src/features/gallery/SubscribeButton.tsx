import { useState } from "react";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { creatorsApi } from "../creators/creators.api.ts";
import { usePermission } from "../session/Can.tsx";

/**
 * Subscribes to (follows) the creator of a gallery item, or takes it back (docs/decisions/309). A saved account
 * follows; a guest or a visitor without a login is offered the login dialog, which saves a guest's account. The state
 * shown is the server's answer.
 */
export function SubscribeButton({ homeLink, following }: { homeLink: string; following: boolean }) {
  const { t } = useTranslation();
  const canFollow = usePermission({ permission: "create:Follow" });
  const [on, setOn] = useState(following);
  const [busy, setBusy] = useState(false);
  const toggle = () => {
    if (!canFollow) return dialogs.open("login");
    setBusy(true);
    creatorsApi
      .bind(homeLink, !on)
      .then((r) => setOn(r.subscribed))
      .catch(() => null)
      .finally(() => setBusy(false));
  };
  return (
    <Button size="small" variant={on ? "outlined" : "contained"} disabled={busy} onClick={toggle} aria-pressed={on} data-testid="gallery-subscribe">
      {t(on ? "gallery.subscribed" : "gallery.subscribe")}
    </Button>
  );
}
