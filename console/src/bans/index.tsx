import { BooleanInput, Datagrid, DateField, FunctionField, List, TextField, useRecordContext } from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";

function LiftButton() {
  const ban = useRecordContext();
  if (!ban || ban.liftedAt) return null;
  return <StaffAction resource="bans" path="lift" can={["update", "Ban"]} label="console.action.lift" color="success" />;
}

function BanList() {
  return (
    <List filters={[<BooleanInput key="active" source="active" alwaysOn />]} sort={{ field: "id", order: "DESC" }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="id" />
        <TextField source="userId" />
        <TextField source="reason" />
        <TextField source="staffId" />
        <DateField source="createdAt" showTime />
        <DateField source="liftedAt" showTime />
        <FunctionField source="flaggedUserIds" sortable={false} render={(ban) => ban.flaggedUserIds.join(", ")} />
        <FunctionField label={false} render={() => <LiftButton />} />
      </Datagrid>
    </List>
  );
}

export const bans = { list: BanList };
