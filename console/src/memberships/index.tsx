import { BooleanField, Datagrid, DateField, List, NumberField, ReferenceField, SelectInput, Show, SimpleShowLayout, TextField, TextInput } from "react-admin";
import { MEMBERSHIP_STATUSES } from "../../../server/src/contract/memberships.ts";
import { choicesOf } from "../common/choices.ts";

const statuses = choicesOf(MEMBERSHIP_STATUSES);

const filters = [
  <SelectInput key="status" source="status" choices={statuses} alwaysOn />,
  <TextInput key="provider" source="provider" />,
  <TextInput key="userId" source="userId" />,
];

function MembershipList() {
  return (
    <List filters={filters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="userId" />
        <TextField source="status" />
        <TextField source="provider" />
        <NumberField source="creditsPerPeriod" />
        <NumberField source="periodsPaid" />
        <DateField source="currentPeriodEnd" showTime />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function MembershipShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="userId" />
        <ReferenceField source="orderId" reference="orders" link="show" />
        <TextField source="status" />
        <TextField source="provider" />
        <TextField source="providerRef" />
        <NumberField source="creditsPerPeriod" />
        <NumberField source="periodsPaid" />
        <DateField source="currentPeriodEnd" showTime />
        <BooleanField source="cancelAtPeriodEnd" />
        <DateField source="endedAt" showTime />
        <DateField source="createdAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

export const memberships = { list: MembershipList, show: MembershipShow };
