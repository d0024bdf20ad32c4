import MovieIcon from "@mui/icons-material/Movie";
import { ArrayField, Datagrid, DateField, List, NumberField, SelectInput, Show, SimpleShowLayout, TextField, TextInput } from "react-admin";
import { JsonField } from "../common/fields.tsx";
import { MODES } from "../templates/index.tsx";
import { TASK_STATUSES } from "../../../server/src/contract/generation.ts";
import { choicesOf } from "../common/choices.ts";

const STATUSES = choicesOf(TASK_STATUSES);

const filters = [
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />,
  <SelectInput key="mode" source="mode" choices={MODES} />,
  <TextInput key="engine" source="engine" />,
];

function TaskList() {
  return (
    <List filters={filters} sort={{ field: "id", order: "DESC" }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="userId" />
        <TextField source="mode" />
        <TextField source="engine" />
        <TextField source="status" />
        <NumberField source="cost" />
        <TextField source="state" />
        <TextField source="error" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

function TaskShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="userId" />
        <TextField source="mode" />
        <TextField source="templateId" />
        <TextField source="engine" />
        <TextField source="status" />
        <NumberField source="progress" />
        <NumberField source="cost" />
        <TextField source="state" />
        <JsonField source="input" />
        {/* which workflow each try ran on which server: a template without a workflow of its own runs the engine's choice */}
        <ArrayField source="runs">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <NumberField source="attempt" />
            <TextField source="workflow" />
            <TextField source="server" />
            <DateField source="at" showTime />
          </Datagrid>
        </ArrayField>
        <TextField source="outputKey" />
        <JsonField source="outputs" />
        <TextField source="error" />
        <DateField source="createdAt" showTime />
        <DateField source="finishedAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

export const tasks = { list: TaskList, show: TaskShow, icon: MovieIcon };
