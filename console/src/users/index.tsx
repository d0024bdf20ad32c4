import {
  BooleanField,
  BooleanInput,
  Datagrid,
  DateField,
  List,
  NumberField,
  ReferenceManyField,
  SearchInput,
  SelectInput,
  Show,
  TabbedShowLayout,
  TextField,
  TopToolbar,
  Pagination,
  useRecordContext,
  useCanAccessResources,
} from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";
import { AgeField, MoneyField } from "../common/fields.tsx";
import { LOGIN_TYPES } from "../../../server/src/contract/users.ts";
import { choicesOf } from "../common/choices.ts";

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="loginType" source="loginType" choices={choicesOf(LOGIN_TYPES)} />,
  <BooleanInput key="banned" source="banned" />,
  <BooleanInput key="paymentPermission" source="paymentPermission" />,
];

function UserList() {
  return (
    <List filters={filters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="publicName" sortable={false} />
        <TextField source="email" />
        <TextField source="loginType" />
        <NumberField source="points" />
        <BooleanField source="paymentPermission" />
        <DateField source="bannedAt" showTime />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function UserActions() {
  const user = useRecordContext();
  if (!user) return null;
  return (
    <TopToolbar sx={{ gap: 1, flexWrap: "wrap" }}>
      {user.bannedAt ? (
        <StaffAction resource="users" path="unban" can={["ban", "User"]} label="console.action.unban" color="success" />
      ) : (
        <StaffAction resource="users" path="ban" can={["ban", "User"]} label="console.action.ban" color="error" />
      )}
      {user.paymentPermission ? (
        <StaffAction
          resource="users"
          path="payment-permission"
          can={["grant", "Payment"]}
          label="console.action.revoke_payment"
          body={{ granted: false }}
          color="warning"
        />
      ) : (
        <StaffAction resource="users" path="payment-permission" can={["grant", "Payment"]} label="console.action.grant_payment" body={{ granted: true }} />
      )}
      <StaffAction resource="users" path="credits" can={["adjust", "LedgerEntry"]} label="console.action.adjust_credits" askDelta />
      {/* the person's GDPR requests made on their behalf (decisions 261, 262); the server refuses what does not apply */}
      <StaffAction resource="users" path="data-export" can={["create", "DataRequest"]} label="console.action.data_export" />
      {/* one of the two: undoing is offered only while a deletion waits out its grace period (issue 46 item 20) */}
      {user.deletionPendingUntil ? (
        <StaffAction resource="users" path="undo-delete-account" can={["delete", "DataRequest"]} label="console.action.undo_delete_account" color="success" />
      ) : (
        <StaffAction resource="users" path="delete-account" can={["delete", "DataRequest"]} label="console.action.delete_account" color="error" />
      )}
    </TopToolbar>
  );
}

/** A person's ledger, newest first: their page's tab, and beside a support thread (`source` names the person's id there). */
export function PersonLedger({ source, perPage }: { source?: string; perPage?: number }) {
  return (
    <ReferenceManyField reference="ledger" target="userId" source={source} sort={{ field: "id", order: "DESC" }} perPage={perPage} pagination={<Pagination />}>
      <Datagrid bulkActionButtons={false}>
        <DateField source="createdAt" showTime />
        <NumberField source="delta" />
        <NumberField source="balanceAfter" />
        <TextField source="reason" />
        <TextField source="note" />
        <TextField source="staffId" />
      </Datagrid>
    </ReferenceManyField>
  );
}

/** A person's orders, newest first, each opening its order page. */
export function PersonOrders({ source, perPage }: { source?: string; perPage?: number }) {
  return (
    <ReferenceManyField reference="orders" target="userId" source={source} sort={{ field: "id", order: "DESC" }} perPage={perPage} pagination={<Pagination />}>
      <Datagrid rowClick={(id) => `/orders/${id}/show`} bulkActionButtons={false}>
        <TextField source="orderNo" />
        <TextField source="status" />
        <TextField source="provider" />
        <MoneyField source="finalPriceMinor" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </ReferenceManyField>
  );
}

function UserShow() {
  const { canAccess } = useCanAccessResources({ action: "list", resources: ["ledger", "orders", "generation-tasks", "reports"] });
  const may = (resource: string) => canAccess?.[resource] === true;
  return (
    <Show actions={<UserActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="console.tab.summary">
          <TextField source="id" />
          <TextField source="uuid" />
          <TextField source="publicName" />
          <TextField source="nickname" emptyText="—" />
          <TextField source="email" />
          <TextField source="loginType" />
          <TextField source="role" />
          <TextField source="channelId" />
          <NumberField source="points" data-testid="balance" />
          <NumberField source="allPoints" />
          <BooleanField source="paymentPermission" />
          <DateField source="bannedAt" showTime />
          <DateField source="createdAt" showTime />
        </TabbedShowLayout.Tab>
        {may("ledger") && (
          <TabbedShowLayout.Tab label="console.tab.ledger" path="ledger">
            <PersonLedger />
          </TabbedShowLayout.Tab>
        )}
        {may("orders") && (
          <TabbedShowLayout.Tab label="console.tab.orders" path="orders">
            <PersonOrders />
          </TabbedShowLayout.Tab>
        )}
        {may("generation-tasks") && (
          <TabbedShowLayout.Tab label="console.tab.tasks" path="tasks">
            <ReferenceManyField reference="generation-tasks" target="userId" sort={{ field: "id", order: "DESC" }} pagination={<Pagination />}>
              <Datagrid rowClick={(id) => `/generation-tasks/${id}/show`} bulkActionButtons={false}>
                <TextField source="id" />
                <TextField source="mode" />
                <TextField source="status" />
                <TextField source="state" />
                <DateField source="createdAt" showTime />
              </Datagrid>
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}
        {may("reports") && (
          <TabbedShowLayout.Tab label="console.tab.reports" path="reports">
            <ReferenceManyField reference="reports" target="targetUserId" sort={{ field: "id", order: "DESC" }} pagination={<Pagination />}>
              <Datagrid rowClick={(id) => `/reports/${id}/show`} bulkActionButtons={false}>
                <TextField source="reason" />
                <TextField source="targetType" />
                <TextField source="status" />
                <AgeField source="ageSeconds" />
              </Datagrid>
            </ReferenceManyField>
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}

export const users = {
  list: UserList,
  show: UserShow,
};
