import { Button, Typography } from "@mui/material";
import { Link, NumberInput, SimpleForm, maxValue, minValue, useTranslate } from "react-admin";
import { REWARD_DEFAULTS, REWARD_MAX_CREDITS, REWARDS_SETTING } from "../../../server/src/contract/rewards.ts";

const amount = [minValue(0), maxValue(REWARD_MAX_CREDITS)];

/** The daily and referral gifts (docs/decisions/302): 0 turns one off; the server checks every value again. */
export function RewardsForm() {
  const translate = useTranslate();
  return (
    <SimpleForm>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate("console.rewards.help")}
      </Typography>
      <NumberInput source="value.checkInCredits" label="console.rewards.checkInCredits" validate={amount} />
      <NumberInput source="value.checkInMonthlyCap" label="console.rewards.checkInMonthlyCap" validate={[minValue(0), maxValue(31)]} />
      <NumberInput
        source="value.checkInMinAccountHours"
        label="console.rewards.checkInMinAccountHours"
        defaultValue={REWARD_DEFAULTS.checkInMinAccountHours}
        validate={[minValue(0), maxValue(24 * 90)]}
      />
      <NumberInput
        source="value.checkInNetworkDailyCap"
        label="console.rewards.checkInNetworkDailyCap"
        defaultValue={REWARD_DEFAULTS.checkInNetworkDailyCap}
        validate={amount}
      />
      <NumberInput source="value.referralInviterCredits" label="console.rewards.referralInviterCredits" validate={amount} />
      <NumberInput source="value.referralInviteeCredits" label="console.rewards.referralInviteeCredits" validate={amount} />
      <NumberInput source="value.referralMonthlyCap" label="console.rewards.referralMonthlyCap" validate={amount} />
    </SimpleForm>
  );
}

/** On the settings list: the gifts are always there to set, saved or not. */
export function RewardsButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to={`/site-settings/${REWARDS_SETTING}`} size="small" data-action="open-rewards">
      {translate("console.rewards.open")}
    </Button>
  );
}
