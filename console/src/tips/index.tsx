import { Typography } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  NumberInput,
  ReferenceField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { TIP_STATUSES } from "../../../server/src/contract/tips.ts";
import { choicesOf } from "../common/choices.ts";
import { StaffAction } from "../common/StaffAction.tsx";
import type { AdminJson } from "../http.ts";

type TipRecord = AdminJson<"/admin/api/tips/{id}">;

/** Reverse a fraudulent tip (docs/decisions/304): the fan gets it back, the creator's earning is taken back; a reason is required. */
function TipReversal() {
  const translate = useTranslate();
  const r = useRecordContext<TipRecord>();
  if (r?.status !== "completed") return null;
  return (
    <StaffAction
      resource="tips"
      path="reverse"
      can={["update", "Tip"]}
      label="console.tips.reverse"
      color="error"
      intro={<Typography variant="body2">{translate("console.tips.reverseIntro", { amount: r.amount, link: r.homeLink })}</Typography>}
    />
  );
}

const tipFilters = [
  <SelectInput key="status" source="status" choices={choicesOf(TIP_STATUSES)} alwaysOn />,
  <NumberInput key="fanUserId" source="fanUserId" />,
  <NumberInput key="creatorPageId" source="creatorPageId" />,
];

function TipList() {
  return (
    <List filters={tipFilters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="homeLink" />
        <ReferenceField source="fanUserId" reference="users" link="show" />
        <NumberField source="amount" />
        <TextField source="message" emptyText="—" />
        <TextField source="status" />
        <DateField source="createdAt" showTime />
        <FunctionField label={false} render={() => <TipReversal />} />
      </Datagrid>
    </List>
  );
}

function TipShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <TipReversal />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="homeLink" />
        <ReferenceField source="creatorUserId" reference="users" link="show" />
        <ReferenceField source="fanUserId" reference="users" link="show" />
        <TextField source="libraryItemId" emptyText="—" />
        <NumberField source="amount" />
        <TextField source="message" emptyText="—" />
        <TextField source="status" />
        <DateField source="createdAt" showTime />
        <TextField source="reversalNote" emptyText="—" />
        <NumberField source="reversalShortfall" />
        <TextField source="reversedById" emptyText="—" />
        <DateField source="reversedAt" showTime emptyText="—" />
      </SimpleShowLayout>
    </Show>
  );
}

export const tips = { list: TipList, show: TipShow };
