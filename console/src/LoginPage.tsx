import { useState } from "react";
import { Avatar, Box, Button, Card, CardContent, TextField, Typography } from "@mui/material";
import LockIcon from "@mui/icons-material/Lock";
import { useLogin, useNotify, useTranslate } from "react-admin";

/** SPEC.md §5's admin form: username, password and the one-time code. */
export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [form, setForm] = useState({ username: "", password: "", code: "" });
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await login(form);
    } catch (err) {
      notify((err as Error).message || "ra.auth.sign_in_error", { type: "error" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center", bgcolor: "#eceff1" }}>
      <Card sx={{ width: 360 }}>
        <CardContent>
          <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", mb: 2 }}>
            <Avatar sx={{ bgcolor: "secondary.main", mb: 1 }}>
              <LockIcon />
            </Avatar>
            <Typography variant="h6">{translate("console.login.title")}</Typography>
          </Box>
          <form onSubmit={submit}>
            <TextField
              name="username"
              label={translate("ra.auth.username")}
              value={form.username}
              onChange={set("username")}
              fullWidth
              margin="dense"
              autoFocus
              required
            />
            <TextField
              name="password"
              type="password"
              label={translate("ra.auth.password")}
              value={form.password}
              onChange={set("password")}
              fullWidth
              margin="dense"
              required
            />
            <TextField
              name="code"
              label={translate("console.login.code")}
              value={form.code}
              onChange={set("code")}
              fullWidth
              margin="dense"
              required
              slotProps={{ htmlInput: { inputMode: "numeric", autoComplete: "one-time-code" } }}
            />
            <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }} disabled={busy}>
              {translate("ra.auth.sign_in")}
            </Button>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
}
