import {
  Datagrid,
  DateField,
  DateInput,
  List,
  NumberField,
  Pagination,
  ReferenceManyField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useRecordContext,
  useTranslate,
  Labeled,
  TopToolbar,
} from "react-admin";
import { Typography } from "@mui/material";
import { JsonField, MoneyField } from "../common/fields.tsx";
import { ORDER_STATUSES } from "../../../server/src/contract/orders.ts";
import { choicesOf } from "../common/choices.ts";
import { StaffAction } from "../common/StaffAction.tsx";
import type { AdminJson } from "../http.ts";

/** GET /admin/api/orders/:id/refund-preview. */
type RefundPreview = AdminJson<"/admin/api/orders/{id}/refund-preview">;

/** Support refunds a paid order: the dialog first shows what will be taken back and what the user already spent. */
function RefundButton() {
  const translate = useTranslate();
  const record = useRecordContext<{ status: string }>();
  if (record?.status !== "paid") return null;
  return (
    <StaffAction<RefundPreview>
      resource="orders"
      path="refund"
      can={["refund", "Order"]}
      label="console.action.refund"
      color="error"
      preview={{
        path: "refund-preview",
        describe: (p) => (
          <Typography variant="body2" component="div">
            <div>{translate("console.refund.credits", { n: p.credits })}</div>
            <div>{translate("console.refund.balance", { n: p.balance })}</div>
            <div data-spent={p.already_spent}>{translate("console.refund.spent", { n: p.already_spent })}</div>
            {p.return_by_hand ? (
              <>
                <strong>{translate("console.refund.claw_back_only", { n: p.claw_back })}</strong>
                <div data-return-by-hand>
                  {translate("console.refund.by_hand", { amount: p.return_by_hand.amount ?? "", currency: p.return_by_hand.currency ?? "" })}
                </div>
              </>
            ) : (
              <strong>{translate("console.refund.claw_back", { n: p.claw_back })}</strong>
            )}
          </Typography>
        ),
        confirm: (p) => ({ acknowledged_spent: p.already_spent }),
        asks: (p) => (p.return_by_hand ? "reference" : undefined),
      }}
    />
  );
}

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
        <TextField source="productName" sortable={false} />
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
    <Show
      actions={
        <TopToolbar>
          <RefundButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="orderNo" />
        <TextField source="userId" />
        <TextField source="productName" />
        <TextField source="status" />
        <TextField source="provider" />
        <TextField source="channelId" />
        <MoneyField source="finalPriceMinor" />
        <NumberField source="credits" />
        <NumberField source="bonusCredits" />
        <TextField source="receivedAmount" />
        <TextField source="receivedCurrency" />
        <TextField source="providerPaymentRef" />
        <MoneyField source="refundedMinor" />
        <TextField source="termsVersion" emptyText="-" />
        <TextField source="failureReason" />
        <DateField source="createdAt" showTime />
        <DateField source="paidAt" showTime />
        <PaymentEvents />
      </SimpleShowLayout>
    </Show>
  );
}

export const orders = { list: OrderList, show: OrderShow };
