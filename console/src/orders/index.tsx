import ReceiptIcon from "@mui/icons-material/Receipt";
import { Datagrid, DateField, DateInput, List, NumberField, Pagination, ReferenceManyField, SearchInput, SelectInput, Show, SimpleShowLayout, TextField, TextInput, useCanAccess, useTranslate, Labeled } from "react-admin";
import { JsonField, MoneyField } from "../common/fields.tsx";
import { ORDER_STATUSES } from "../../../server/src/contract/orders.ts";
import { choicesOf } from "../common/choices.ts";

const statuses = choicesOf(ORDER_STATUSES);

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={statuses} />,
  <TextInput key="provider" source="provider" />,
  <TextInput key="channelId" source="channelId" />,
  <DateInput key="from" source="createdAt_gte" />,
  <DateInput key="to" source="createdAt_lte" />,
];

function OrderList() {
  return (
    <List filters={filters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="orderNo" />
        <TextField source="userId" />
        <TextField source="status" />
        <TextField source="provider" />
        <TextField source="channelId" />
        <MoneyField source="finalPriceMinor" />
        <NumberField source="credits" />
        <DateField source="createdAt" showTime />
        <DateField source="paidAt" showTime />
      </Datagrid>
    </List>
  );
}

function PaymentEvents() {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ action: "list", resource: "payment-events" });
  if (!canAccess) return null;
  return (
    <Labeled label={translate("console.tab.events")} fullWidth>
      <ReferenceManyField reference="payment-events" target="orderId" sort={{ field: "id", order: "ASC" }} pagination={<Pagination />}>
        <Datagrid bulkActionButtons={false}>
          <DateField source="receivedAt" showTime />
          <TextField source="provider" />
          <TextField source="type" />
          <TextField source="eventId" />
          <JsonField source="payload" />
        </Datagrid>
      </ReferenceManyField>
    </Labeled>
  );
}

function OrderShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="orderNo" />
        <TextField source="userId" />
        <TextField source="productId" />
        <TextField source="status" />
        <TextField source="provider" />
        <TextField source="channelId" />
        <MoneyField source="finalPriceMinor" />
        <NumberField source="credits" />
        <TextField source="failureReason" />
        <DateField source="createdAt" showTime />
        <DateField source="paidAt" showTime />
        <PaymentEvents />
      </SimpleShowLayout>
    </Show>
  );
}

export const orders = { list: OrderList, show: OrderShow, icon: ReceiptIcon, recordRepresentation: "orderNo" };
