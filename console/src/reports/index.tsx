import FlagIcon from "@mui/icons-material/Flag";
import { Chip } from "@mui/material";
import { Datagrid, DateField, FunctionField, List, SelectInput, Show, SimpleShowLayout, TextField, TopToolbar, useRecordContext, useTranslate } from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";
import { AgeField } from "../common/fields.tsx";
import { REPORT_REASONS, REPORT_STATUSES, REPORT_TARGETS } from "../../../server/src/contract/moderation.ts";
import { choicesOf } from "../common/choices.ts";

const REASONS = choicesOf(REPORT_REASONS);
const STATUSES = choicesOf(REPORT_STATUSES);
const TARGETS = choicesOf(REPORT_TARGETS);

const filters = [
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />,
  <SelectInput key="reason" source="reason" choices={REASONS} />,
  <SelectInput key="targetType" source="targetType" choices={TARGETS} />,
];

/** Underage reports stand out in the queue. */
const highlight = (r: { reason: string }) => (r.reason === "underage" ? { backgroundColor: "#fde7e9", "& td": { fontWeight: 600 } } : {});

function ReasonField() {
  const r = useRecordContext();
  const translate = useTranslate();
  if (!r) return null;
  return r.reason === "underage" ? <Chip size="small" color="error" label={translate("console.underage")} /> : <span>{r.reason}</span>;
}

function ReportActions() {
  const r = useRecordContext();
  if (!r || r.status !== "open") return null;
  return (
    <>
      <StaffAction resource="reports" path="dismiss" can={["update", "Report"]} label="console.action.dismiss" />
      <StaffAction resource="reports" path="takedown" can={["update", "Report"]} label="console.action.takedown" color="warning" />
      <StaffAction resource="reports" path="ban-uploader" can={["ban", "User"]} label="console.action.ban_uploader" color="error" />
    </>
  );
}

function ReportList() {
  return (
    <List filters={filters} filterDefaultValues={{ status: "open" }} sort={{ field: "createdAt", order: "ASC" }}>
      <Datagrid rowClick="show" rowSx={highlight} bulkActionButtons={false}>
        <TextField source="id" />
        <FunctionField source="reason" render={() => <ReasonField />} />
        <TextField source="targetType" />
        <TextField source="targetId" />
        <TextField source="targetUserId" />
        <TextField source="status" />
        <AgeField source="ageSeconds" sortBy="createdAt" />
        <FunctionField label={false} render={() => <ReportActions />} />
      </Datagrid>
    </List>
  );
}

function ReportShow() {
  return (
    <Show actions={<TopToolbar sx={{ gap: 1 }}><ReportActions /></TopToolbar>}>
      <SimpleShowLayout>
        <TextField source="id" />
        <FunctionField source="reason" render={() => <ReasonField />} />
        <TextField source="details" />
        <TextField source="targetType" />
        <TextField source="targetId" />
        <TextField source="targetUserId" />
        <TextField source="reporterUserId" />
        <TextField source="status" />
        <AgeField source="ageSeconds" />
        <DateField source="createdAt" showTime />
        <DateField source="resolvedAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

export const reports = { list: ReportList, show: ReportShow, icon: FlagIcon };
