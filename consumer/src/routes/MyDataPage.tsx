import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../dialogs/dialog-store.ts";
import { MyData } from "../features/privacy/MyData.tsx";
import { useSession } from "../features/session/session.ts";

/** /myData: the My data section on a page of its own (the footer's link), as the account area also shows it. */
export function Component() {
  const { t } = useTranslation();
  const { token } = useSession();
  return (
    <Box sx={{ maxWidth: 760, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }} data-testid="mydata-page">
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 34 }, mb: 3 }}>
        {t("privacy.title")}
      </Typography>
      {token ? (
        <MyData />
      ) : (
        <Button variant="outlined" onClick={() => dialogs.open("login")}>
          {t("login.action")}
        </Button>
      )}
    </Box>
  );
}
