import { useState } from "react";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import FavoriteIcon from "@mui/icons-material/Favorite";
import FavoriteBorderIcon from "@mui/icons-material/FavoriteBorder";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { useSession } from "../session/session.ts";
import { setLiked, type LikeState } from "./gallery.api.ts";

/**
 * A heart with the item's like count. Anyone signed in likes, a guest too (issue 32); nobody signed in is offered the
 * login dialog, whose guest login is one tap. The count shown is always the server's answer, never a local guess.
 */
export function LikeButton({ id, likes, liked, onChange }: { id: number; likes: number; liked: number; onChange?: (s: LikeState) => void }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const [state, setState] = useState({ likes, liked });
  const [busy, setBusy] = useState(false);
  const toggle = () => {
    if (!token) {
      dialogs.open("login");
      return;
    }
    setBusy(true);
    setLiked(id, state.liked === 0)
      .then((answer) => {
        setState(answer);
        onChange?.(answer);
      })
      .catch(() => null)
      .finally(() => setBusy(false));
  };
  return (
    <Box sx={{ display: "inline-flex", alignItems: "center", pointerEvents: "auto" }}>
      <IconButton
        size="small"
        onClick={toggle}
        disabled={busy}
        aria-pressed={state.liked === 1}
        aria-label={t(state.liked ? "gallery.unlike" : "gallery.like")}
        data-testid={`like-${id}`}
        sx={{ color: state.liked ? "#ec4899" : "inherit" }}
      >
        {state.liked ? <FavoriteIcon fontSize="small" /> : <FavoriteBorderIcon fontSize="small" />}
      </IconButton>
      <Typography variant="body2" fontWeight={700} data-testid={`likes-${id}`}>
        {state.likes}
      </Typography>
    </Box>
  );
}
