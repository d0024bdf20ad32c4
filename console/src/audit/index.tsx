import { Datagrid, DateField, DateInput, List, ReferenceField, Show, SimpleShowLayout, TextField, TextInput } from "react-admin";
import { JsonField } from "../common/fields.tsx";

const filters = [
  <TextInput key="resource" source="resource" alwaysOn />,
  <TextInput key="action" source="action" />,
  <TextInput key="staffId" source="staffId" />,
  <TextInput key="resourceId" source="resourceId" />,
  <DateInput key="from" source="createdAt_gte" />,
  <DateInput key="to" source="createdAt_lte" />,
];

export const auditLog = {
  list: () => (
    <List filters={filters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateField source="createdAt" showTime />
        <ReferenceField source="staffId" reference="staff" link={false} />
        <TextField source="action" />
        <TextField source="resource" />
        <TextField source="resourceId" />
        <TextField source="reason" />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show>
      <SimpleShowLayout>
        <DateField source="createdAt" showTime />
        <TextField source="staffId" />
        <TextField source="action" />
        <TextField source="resource" />
        <TextField source="resourceId" />
        <TextField source="reason" />
        <JsonField source="before" />
        <JsonField source="after" />
      </SimpleShowLayout>
    </Show>
  ),
};
