import { Datagrid, DateField, List, SearchInput, Show, SimpleShowLayout, TextField } from "react-admin";

export const outbox = {
  list: () => (
    <List filters={[<SearchInput key="q" source="q" alwaysOn />]} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <DateField source="createdAt" showTime />
        <TextField source="to" />
        <TextField source="subject" />
        <DateField source="sentAt" showTime />
        <TextField source="error" />
      </Datagrid>
    </List>
  ),
  show: () => (
    <Show>
      <SimpleShowLayout>
        <TextField source="to" />
        <TextField source="subject" />
        <TextField source="body" component="pre" />
        <DateField source="createdAt" showTime />
        <DateField source="sentAt" showTime />
        <TextField source="error" />
      </SimpleShowLayout>
    </Show>
  ),
};
