import CssBaseline from "@mui/material/CssBaseline";
import { type Theme, ThemeProvider } from "@mui/material/styles";
import { RouterProvider } from "react-router";
import { router } from "./routes/router.tsx";

/** `theme`: built from the operator's brand at start (main.tsx, docs/decisions/289). */
export function App({ theme }: { theme: Theme }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <RouterProvider router={router} />
    </ThemeProvider>
  );
}
