import ArrowUpwardIcon from "@mui/icons-material/ArrowUpward";
import { IconButton } from "@mui/material";
import { useCallback, useEffect, useState } from "react";
import { GpuCosts } from "./GpuCosts.tsx";
import { ImageUploadButton } from "../common/UploadButton.tsx";
import {
  useCanAccess,
  useListContext,
  useNotify,
  useRecordContext,
  type RaRecord,
  useRedirect,
  useRefresh,
  useTranslate,
  BooleanField,
  BooleanInput,
  Create,
  FormDataConsumer,
  Datagrid,
  Edit,
  EditButton,
  ImageField,
  Labeled,
  List,
  NumberField,
  NumberInput,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
} from "react-admin";
import { apiUrl, httpClient, postJson } from "../http.ts";
import { ENGINE_KINDS } from "../../../server/src/contract/engines.ts";
import { TranslationInputs } from "../common/TranslationInputs.tsx";
import { GENERATION_MODES } from "../../../server/src/contract/generation.ts";
import { TEMPLATE_CATEGORIES } from "../../../server/src/contract/templates.ts";
import { choicesOf } from "../common/choices.ts";

const CATEGORIES = choicesOf(TEMPLATE_CATEGORIES);
export const MODES = choicesOf(GENERATION_MODES);
const ENGINES = choicesOf(ENGINE_KINDS);

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="category" source="category" choices={CATEGORIES} />,
  <SelectInput key="mode" source="mode" choices={MODES} />,
  <BooleanInput key="enabled" source="enabled" />,
];

/** Swaps a template with the one above it (in sortOrder) through POST /admin/api/templates/reorder. */
function MoveUpButton() {
  const record = useRecordContext();
  const { data, sort } = useListContext();
  const { canAccess } = useCanAccess({ action: "edit", resource: "templates" });
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const ids = (data ?? []).map((r) => r.id as number);
  const at = record ? ids.indexOf(record.id as number) : -1;
  if (!canAccess || sort.field !== "sortOrder" || sort.order !== "ASC" || at <= 0) return null;
  async function moveUp(e: React.MouseEvent) {
    e.stopPropagation();
    const order = [...ids];
    [order[at - 1], order[at]] = [order[at], order[at - 1]];
    try {
      await postJson("templates/reorder", { ids: order });
      refresh();
    } catch (err) {
      notify((err as Error).message, { type: "error" });
    }
  }
  return (
    <IconButton size="small" onClick={moveUp} aria-label={translate("console.action.moved_up")} title={translate("console.action.moved_up")}>
      <ArrowUpwardIcon fontSize="small" />
    </IconButton>
  );
}

/** The cover: checked by content and saved at once by POST /admin/api/templates/:id/cover. */
function CoverUpload() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <ImageUploadButton
      path={`templates/${record.id}/cover`}
      name="cover"
      label="console.action.upload_cover"
      saved="console.notify.cover_uploaded"
      action="templates-cover"
    />
  );
}

function TemplateList() {
  return (
    <List filters={filters} sort={{ field: "sortOrder", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="sortOrder" />
        <ImageField source="coverSrc" sx={{ "& img": { maxWidth: 48, maxHeight: 48 } }} sortable={false} />
        <TextField source="name" />
        <TextField source="category" />
        <TextField source="suitFor" />
        <TextField source="mode" />
        <NumberField source="creditPrice" />
        <BooleanField source="enabled" />
        <MoveUpButton />
        <EditButton />
      </Datagrid>
    </List>
  );
}

/**
 * The workflow files the server has (GET /admin/api/engines), offered for the template's mode. A workflow chosen before
 * the mode changed to one it does not make is no longer listed, so the field says why it cannot be saved (the server
 * refuses it too, decision 320). A template saved with such a pin before that check keeps it while neither changes.
 */
function WorkflowInput() {
  const record = useRecordContext<{ mode?: string; workflow?: string | null }>();
  const [choices, setChoices] = useState<{ id: string; name: string; modes: string[] }[]>([]);
  useEffect(() => {
    httpClient(`${apiUrl}/engines`).then(
      ({ json }) =>
        setChoices(
          (json as { workflows: { name: string; title: string; modes: string[] }[] }).workflows.map((w) => ({
            id: w.name,
            name: `${w.title} (${w.name})`,
            modes: w.modes,
          })),
        ),
      () => setChoices([]),
    );
  }, []);
  // stable between renders, as react-admin asks of a validator
  const makesMode = useCallback(
    (workflow: unknown, values: { mode?: string }) => {
      if (!workflow || choices.length === 0 || (workflow === record?.workflow && values.mode === record?.mode)) return undefined;
      return choices.some((c) => c.id === workflow && (!values.mode || c.modes.includes(values.mode))) ? undefined : "console.validation.workflow_not_for_mode";
    },
    [choices, record?.workflow, record?.mode],
  );
  return (
    <FormDataConsumer<{ mode?: string }>>
      {({ formData }) => (
        <SelectInput
          source="workflow"
          choices={choices.filter((c) => !formData.mode || c.modes.includes(formData.mode))}
          validate={makesMode}
          emptyText="—"
          fullWidth
        />
      )}
    </FormDataConsumer>
  );
}

/** Engine parameters are edited as JSON text and stored as an object. */
const jsonText = { format: (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? {}, null, 2)), parse: (v: string) => v };

function TemplateForm({ withUpload = false }: { withUpload?: boolean }) {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <TranslationInputs source="names" />
      <SelectInput source="category" choices={CATEGORIES} validate={required()} />
      <TextInput source="suitFor" validate={required()} />
      <SelectInput source="mode" choices={MODES} validate={required()} />
      <NumberInput source="creditPrice" min={0} validate={required()} />
      <SelectInput source="engine" choices={ENGINES} emptyText="—" />
      <WorkflowInput />
      <TextInput source="engineParams" multiline minRows={3} fullWidth {...jsonText} />
      <TextInput source="coverUrl" fullWidth />
      <Labeled>
        <ImageField source="coverSrc" className="template-cover" sx={{ "& img": { maxWidth: 320, maxHeight: 240 } }} />
      </Labeled>
      {withUpload && <CoverUpload />}
      {withUpload && <TemplateGpuCosts />}
      <NumberInput source="sortOrder" min={0} />
      <BooleanInput source="enabled" />
    </SimpleForm>
  );
}

/** The template's measured GPU cost beside its price, so staff can set creditPrice to cover it (issue 34). */
function TemplateGpuCosts() {
  const record = useRecordContext<{ id: number }>();
  return record ? <GpuCosts templateId={record.id} /> : null;
}

/**
 * A save the server kept although the template cannot run now (engine not configured, workflow offered by no server)
 * says so, with the server's reason; the template stays off sale until it can run.
 */
function useSaveNotice(done: "ra.notification.created" | "ra.notification.updated") {
  const notify = useNotify();
  return (data: RaRecord) =>
    data.warning
      ? notify("console.notify.template_cannot_run", { type: "warning", messageArgs: { reason: data.warning } })
      : notify(done, { type: "info", messageArgs: { smart_count: 1 } });
}

const TemplateEdit = () => {
  const onSuccess = useSaveNotice("ra.notification.updated");
  const redirect = useRedirect();
  // our onSuccess replaces react-admin's, which would have gone back to the list
  return (
    <Edit mutationMode="pessimistic" actions={false} mutationOptions={{ onSuccess: (data: RaRecord) => (onSuccess(data), redirect("list", "templates")) }}>
      <TemplateForm withUpload />
    </Edit>
  );
};
const TemplateCreate = () => {
  const onSuccess = useSaveNotice("ra.notification.created");
  const redirect = useRedirect();
  return (
    <Create mutationOptions={{ onSuccess: (data: RaRecord) => (onSuccess(data), redirect("list", "templates")) }}>
      <TemplateForm />
    </Create>
  );
};

export const templates = { list: TemplateList, edit: TemplateEdit, create: TemplateCreate };
