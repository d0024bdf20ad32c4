import Alert from "@mui/material/Alert";
import Snackbar from "@mui/material/Snackbar";
import { notifications, type Notice } from "./notifications.ts";

/** Loaded with the first notice (see RootLayout). */
export default function NoticeSnackbar({ notice }: { notice: Notice | null }) {
  return (
    <Snackbar
      key={notice?.id}
      open={notice !== null}
      autoHideDuration={5000}
      onClose={(_e, reason) => reason !== "clickaway" && notifications.dismiss()}
      anchorOrigin={{ vertical: "top", horizontal: "center" }}
    >
      <Alert severity={notice?.severity ?? "info"} variant="filled" onClose={() => notifications.dismiss()} data-testid="notice" sx={{ minWidth: 280 }}>
        {notice?.text}
      </Alert>
    </Snackbar>
  );
}
