import { Alert, Chip } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useGetIdentity,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";
import { APPEAL_STATUSES } from "../../../server/src/contract/moderation.ts";
import { choicesOf } from "../common/choices.ts";
import type { AdminJson } from "../http.ts";

type AppealRecord = AdminJson<"/admin/api/appeals/{id}">;

/** Uphold or reverse; hidden from the moderator who made the decision (the server refuses them too). */
function AppealActions() {
  const r = useRecordContext<AppealRecord>();
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  if (r?.status !== "open") return null;
  if (identity && r.decision.decidedById !== null && Number(identity.id) === r.decision.decidedById) {
    return (
      <Alert severity="info" data-same-moderator>
        {translate("console.notices.sameModerator")}
      </Alert>
    );
  }
  return (
    <>
      <StaffAction resource="appeals" path="uphold" can={["update", "Appeal"]} label="console.notices.uphold" />
      <StaffAction resource="appeals" path="reverse" can={["update", "Appeal"]} label="console.notices.reverse" color="success" />
    </>
  );
}

function DecisionField() {
  const r = useRecordContext<AppealRecord>();
  const translate = useTranslate();
  if (!r) return null;
  const d = r.decision;
  return (
    <span>
      {d.action} · {d.ground} ·{" "}
      <Chip
        size="small"
        variant="outlined"
        label={d.automated ? translate("console.notices.automated") : translate("console.notices.byStaff", { id: d.decidedById ?? "-" })}
      />
    </span>
  );
}

function AppealList() {
  return (
    <List
      filters={[<SelectInput key="status" source="status" choices={choicesOf(APPEAL_STATUSES)} alwaysOn />]}
      filterDefaultValues={{ status: "open" }}
      sort={{ field: "createdAt", order: "ASC" }}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <FunctionField source="decision" sortable={false} render={() => <DecisionField />} />
        <TextField source="decision.userId" label="resources.appeals.fields.person" sortable={false} />
        <TextField source="text" sortable={false} sx={{ display: "block", maxWidth: 360, overflowWrap: "anywhere" }} />
        <TextField source="status" />
        <DateField source="createdAt" showTime />
        <FunctionField label={false} render={() => <AppealActions />} />
      </Datagrid>
    </List>
  );
}

function AppealShow() {
  return (
    <Show
      actions={
        <TopToolbar sx={{ gap: 1 }}>
          <AppealActions />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <FunctionField source="decision" render={() => <DecisionField />} />
        <TextField source="decision.explanation" label="resources.appeals.fields.explanation" emptyText="-" />
        <TextField source="decision.userId" label="resources.appeals.fields.person" />
        <TextField source="decision.targetType" label="resources.appeals.fields.targetType" emptyText="-" />
        <TextField source="decision.targetId" label="resources.appeals.fields.targetId" emptyText="-" />
        <TextField source="text" />
        <TextField source="status" />
        <TextField source="decisionReason" emptyText="-" />
        <TextField source="decidedById" emptyText="-" />
        <DateField source="createdAt" showTime />
        <DateField source="decidedAt" showTime emptyText="-" />
      </SimpleShowLayout>
    </Show>
  );
}

export const appeals = { list: AppealList, show: AppealShow };
