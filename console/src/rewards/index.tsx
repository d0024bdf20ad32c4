import { Datagrid, DateField, FunctionField, List, NumberField, NumberInput, SelectInput, TextField, TextInput, useRecordContext } from "react-admin";
import { REFERRAL_REFUSALS, REFERRAL_STATUSES } from "../../../server/src/contract/rewards.ts";
import { choicesOf } from "../common/choices.ts";
import { StaffAction } from "../common/StaffAction.tsx";

/** A rewarded referral found to be one person twice: both gifts taken back, as far as the balances hold (docs/decisions/302). */
function ReverseButton() {
  const referral = useRecordContext();
  if (referral?.status !== "paid") return null;
  return <StaffAction resource="referrals" path="reverse" can={["update", "Referral"]} label="console.rewards.reverse" color="error" />;
}

const referralFilters = [
  <SelectInput key="status" source="status" choices={choicesOf(REFERRAL_STATUSES)} alwaysOn />,
  <SelectInput key="refusal" source="refusal" choices={choicesOf(REFERRAL_REFUSALS)} />,
  <NumberInput key="inviterId" source="inviterId" />,
  <NumberInput key="inviteeId" source="inviteeId" />,
];

export const referrals = {
  list: () => (
    <List filters={referralFilters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="inviterId" />
        <TextField source="inviteeId" />
        <TextField source="status" />
        <TextField source="refusal" />
        <NumberField source="inviterCredits" />
        <NumberField source="inviteeCredits" />
        <TextField source="orderId" />
        <DateField source="createdAt" showTime />
        <DateField source="decidedAt" showTime />
        <DateField source="reversedAt" showTime />
        <FunctionField label={false} render={() => <ReverseButton />} />
      </Datagrid>
    </List>
  ),
};

const checkInFilters = [
  <TextInput key="network" source="network" alwaysOn />,
  <TextInput key="ip" source="ip" />,
  <TextInput key="fingerprint" source="fingerprint" />,
  <TextInput key="deviceId" source="deviceId" />,
  <NumberInput key="userId" source="userId" />,
];

/** Who got daily gifts from where (docs/decisions/345): a row per gift, with its address, network and browsers. */
export const checkIns = {
  list: () => (
    <List filters={checkInFilters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="userId" sortable={false} />
        <DateField source="localDate" />
        <NumberField source="credits" sortable={false} />
        <TextField source="ip" sortable={false} />
        <TextField source="network" sortable={false} />
        <FunctionField source="fingerprints" sortable={false} render={(r) => r.fingerprints.join(", ")} />
        <FunctionField source="deviceIds" sortable={false} render={(r) => r.deviceIds.join(", ")} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  ),
};

/** Gifts per UTC day: check-ins, referrals rewarded, refused and reversed. */
export const rewardDays = {
  list: () => (
    <List
      filters={[<NumberInput key="days" source="days" min={1} max={366} alwaysOn />]}
      sort={{ field: "id", order: "DESC" }}
      pagination={false}
      perPage={366}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" sortable={false} />
        <NumberField source="check_ins" sortable={false} />
        <NumberField source="check_in_credits" sortable={false} />
        <NumberField source="referrals_paid" sortable={false} />
        <NumberField source="referral_credits" sortable={false} />
        <NumberField source="referrals_refused" sortable={false} />
        <NumberField source="referrals_reversed" sortable={false} />
      </Datagrid>
    </List>
  ),
};
