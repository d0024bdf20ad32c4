import { Typography } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  Labeled,
  List,
  NumberField,
  ReferenceField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { DISPUTE_STATUSES, PAYOUT_STATUSES, type EarningsView } from "../../../server/src/contract/creator-payouts.ts";
import { choicesOf } from "../common/choices.ts";
import { StaffAction } from "../common/StaffAction.tsx";
import type { AdminJson } from "../http.ts";

type PayoutRecord = AdminJson<"/admin/api/payouts/{id}">;

/** Approve (paid outside: the transfer's reference) or reject (the credits return to the creator), while requested. */
function PayoutDecisions() {
  const translate = useTranslate();
  const r = useRecordContext<PayoutRecord>();
  if (r?.status !== "requested") return null;
  const what = translate("console.payouts.what", { amount: r.amount, link: r.homeLink });
  return (
    <>
      <StaffAction
        resource="payouts"
        path="approve"
        can={["update", "CreatorPayout"]}
        label="console.payouts.approve"
        color="success"
        field="reference"
        intro={
          <Typography variant="body2">
            {what} {translate("console.payouts.approveIntro")}
          </Typography>
        }
      />
      <StaffAction
        resource="payouts"
        path="reject"
        can={["update", "CreatorPayout"]}
        label="console.payouts.reject"
        color="error"
        intro={
          <Typography variant="body2">
            {what} {translate("console.payouts.rejectIntro")}
          </Typography>
        }
      />
    </>
  );
}

const payoutFilters = [<SelectInput key="status" source="status" choices={choicesOf(PAYOUT_STATUSES)} alwaysOn />];

function PayoutList() {
  return (
    <List filters={payoutFilters} filterDefaultValues={{ status: "requested" }} sort={{ field: "id", order: "ASC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <ReferenceField source="creatorUserId" reference="users" link="show" />
        <TextField source="homeLink" />
        <NumberField source="amount" />
        <TextField source="status" />
        <DateField source="createdAt" showTime />
        <FunctionField label={false} render={() => <PayoutDecisions />} />
      </Datagrid>
    </List>
  );
}

/** The creator's figures beside the payout, so staff see it is covered by earnings before paying. */
function EarningsFigures() {
  const translate = useTranslate();
  const e = useRecordContext<PayoutRecord>()?.earnings;
  if (!e) return null;
  const rows: [keyof EarningsView, string][] = [
    ["earned", "earned"],
    ["in_escrow", "inEscrow"],
    ["in_dispute", "inDispute"],
    ["payout_pending", "payoutPending"],
    ["paid_out", "paidOut"],
    ["payable", "payable"],
    ["balance", "balance"],
    ["shortfall", "shortfall"],
  ];
  return (
    <Labeled label="console.payouts.earnings">
      <Typography variant="body2" component="div" data-earnings>
        {rows.map(([k, label]) => (
          <div key={k}>
            {translate(`console.payouts.figure.${label}`)}: {e[k]}
          </div>
        ))}
      </Typography>
    </Labeled>
  );
}

function PayoutShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <PayoutDecisions />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <ReferenceField source="creatorUserId" reference="users" link="show" />
        <TextField source="homeLink" />
        <NumberField source="amount" />
        <TextField source="status" />
        <TextField source="reference" emptyText="—" />
        <TextField source="rejectReason" emptyText="—" />
        <TextField source="decidedById" emptyText="—" />
        <DateField source="createdAt" showTime />
        <DateField source="decidedAt" showTime emptyText="—" />
        <EarningsFigures />
      </SimpleShowLayout>
    </Show>
  );
}

export const payouts = { list: PayoutList, show: PayoutShow };

/** Refund the fan (taken back from the creator as far as the balance holds) or uphold the delivery, while open. */
function DisputeDecisions() {
  const translate = useTranslate();
  const r = useRecordContext<{ disputeStatus: string; price: number }>();
  if (r?.disputeStatus !== "open") return null;
  return (
    <>
      <StaffAction
        resource="disputes"
        path="resolve"
        body={{ outcome: "refund" }}
        can={["update", "CustomRequest"]}
        label="console.disputes.refund"
        color="warning"
        intro={<Typography variant="body2">{translate("console.disputes.refundIntro", { price: r.price })}</Typography>}
      />
      <StaffAction
        resource="disputes"
        path="resolve"
        body={{ outcome: "uphold" }}
        can={["update", "CustomRequest"]}
        label="console.disputes.uphold"
        intro={<Typography variant="body2">{translate("console.disputes.upholdIntro", { price: r.price })}</Typography>}
      />
    </>
  );
}

const disputeFilters = [<SelectInput key="disputeStatus" source="disputeStatus" choices={choicesOf(DISPUTE_STATUSES)} alwaysOn />];

function DisputeList() {
  return (
    <List filters={disputeFilters} filterDefaultValues={{ disputeStatus: "open" }} sort={{ field: "disputedAt", order: "ASC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="homeLink" />
        <ReferenceField source="fanUserId" reference="users" link="show" />
        <NumberField source="price" />
        <TextField source="disputeReason" />
        <TextField source="disputeStatus" />
        <DateField source="disputedAt" showTime />
        <FunctionField label={false} render={() => <DisputeDecisions />} />
      </Datagrid>
    </List>
  );
}

function DisputeShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <DisputeDecisions />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="homeLink" />
        <ReferenceField source="creatorUserId" reference="users" link="show" />
        <ReferenceField source="fanUserId" reference="users" link="show" />
        <TextField source="text" />
        <NumberField source="price" />
        <ReferenceField source="deliveredTaskId" reference="generation-tasks" link="show" emptyText="—" />
        <TextField source="disputeReason" />
        <TextField source="disputeStatus" />
        <DateField source="disputedAt" showTime />
        <TextField source="disputeNote" emptyText="—" />
        <NumberField source="disputeShortfall" />
        <TextField source="disputeResolvedById" emptyText="—" />
        <DateField source="disputeResolvedAt" showTime emptyText="—" />
      </SimpleShowLayout>
    </Show>
  );
}

export const disputes = { list: DisputeList, show: DisputeShow };
