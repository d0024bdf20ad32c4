import { Typography } from "@mui/material";
import { Datagrid, DateField, List, NumberField, SelectInput, Show, SimpleShowLayout, TextField, TextInput, useRecordContext, useTranslate } from "react-admin";
import { JsonField, TemplateNameField } from "../common/fields.tsx";
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
        <TemplateNameField source="templateName" />
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

interface TaskTry {
  attempt: number;
  workflow: string;
  server: string;
  at: string;
}

/**
 * Which workflow each try ran on which server (docs/decisions/243): a template without a workflow of its own runs the
 * engine's choice, and an attempt may try several servers.
 */
function TriesField(_: { source: string }) {
  const translate = useTranslate();
  const runs = useRecordContext<{ id: number; runs?: TaskTry[] }>()?.runs ?? [];
  if (!runs.length) return <Typography variant="body2">—</Typography>;
  return (
    <>
      {runs.map((r) => (
        <Typography key={`${r.at}-${r.server}`} variant="body2" sx={{ wordBreak: "break-all" }}>
          {`${translate("resources.generation-tasks.fields.attempt")} ${r.attempt} · ${r.workflow} · ${r.server} · ${new Date(r.at).toLocaleString()}`}
        </Typography>
      ))}
    </>
  );
}

function TaskShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="userId" />
        <TextField source="mode" />
        <TemplateNameField source="templateName" />
        <TextField source="engine" />
        <TextField source="status" />
        <NumberField source="progress" />
        <NumberField source="cost" />
        <TextField source="state" />
        <JsonField source="input" />
        <TriesField source="runs" />
        <TextField source="outputKey" />
        <JsonField source="outputs" />
        <TextField source="error" />
        <DateField source="createdAt" showTime />
        <DateField source="finishedAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

export const tasks = { list: TaskList, show: TaskShow };
