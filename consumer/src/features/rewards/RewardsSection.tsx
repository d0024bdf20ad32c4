import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import { DailyGiftCard } from "./DailyGiftCard.tsx";
import { InviteCard } from "./InviteCard.tsx";

/** The account area's gifts: today's check-in, then the invitation link. */
export default function RewardsSection() {
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <DailyGiftCard />
      <Divider />
      <InviteCard />
    </Box>
  );
}
