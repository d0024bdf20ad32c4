import { Alert } from "@mui/material";
import {
  Create,
  Datagrid,
  DateField,
  List,
  NumberField,
  ReferenceField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  useNotify,
  useRedirect,
  useTranslate,
  type RaRecord,
} from "react-admin";
import { BLOCK_SOURCES } from "../../../server/src/contract/screening.ts";
import { REPORT_TARGETS } from "../../../server/src/contract/moderation.ts";

const SOURCES = BLOCK_SOURCES.map((id) => ({ id, name: id }));
const TARGETS = REPORT_TARGETS.map((id) => ({ id, name: id }));
const filters = [
  <SelectInput key="source" source="source" choices={SOURCES} alwaysOn />,
  <SelectInput key="targetType" source="targetType" choices={TARGETS} />,
  <TextInput key="targetId" source="targetId" />,
];

const BlockedList = () => (
  <List filters={filters} sort={{ field: "id", order: "DESC" }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="id" />
      <TextField source="hash" sx={{ fontFamily: "monospace" }} />
      <TextField source="source" />
      <TextField source="targetType" emptyText="—" />
      <TextField source="targetId" emptyText="—" />
      <NumberField source="hits" />
      <TextField source="note" emptyText="—" />
      <DateField source="createdAt" showTime />
    </Datagrid>
  </List>
);

const BlockedShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="hash" sx={{ fontFamily: "monospace" }} />
      <TextField source="source" />
      <TextField source="targetType" emptyText="—" />
      <TextField source="targetId" emptyText="—" />
      <NumberField source="hits" />
      <TextField source="note" emptyText="—" />
      <ReferenceField source="addedBy" reference="staff" emptyText="—" />
      <DateField source="createdAt" showTime />
    </SimpleShowLayout>
  </Show>
);

/** Import a list of hashes (16 hex digits a line); the server answers how many were new. */
const BlockedImport = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = (r: RaRecord) => {
    notify("console.blocklist.imported", { type: "success", messageArgs: { added: r.added, duplicates: r.duplicates } });
    redirect("list", "blocked-hashes");
  };
  return (
    <Create mutationOptions={{ onSuccess }}>
      <SimpleForm>
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate("console.blocklist.importHelp")}
        </Alert>
        <TextInput source="hashes" multiline minRows={8} fullWidth sx={{ fontFamily: "monospace" }} />
        <TextInput source="note" fullWidth />
      </SimpleForm>
    </Create>
  );
};

/** The blocklist of taken-down media (issue 19): every takedown's hashes and imported lists; uploads matching them are refused. */
export const blockedHashes = { list: BlockedList, show: BlockedShow, create: BlockedImport };
