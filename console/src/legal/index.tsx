import { Box, Chip, Typography } from "@mui/material";
import {
  CloneButton,
  Create,
  Datagrid,
  DateField,
  DateTimeInput,
  FunctionField,
  Labeled,
  List,
  NumberField,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  required,
  useGetList,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { LEGAL_DOCUMENTS, LEGAL_FIELDS } from "../../../server/src/contract/legal.ts";
import { LANGUAGES } from "../../../server/src/contract/locales.ts";
import type { AdminJson } from "../http.ts";

type LegalVersion = AdminJson<"/admin/api/legal-versions/{id}">;

/** The particulars a version still lacks, as the pages name them; "complete" when none. */
function MissingField({ record }: { record: LegalVersion }) {
  const translate = useTranslate();
  if (!record.missing.length) return <Chip size="small" color="success" label={translate("console.legal.complete")} />;
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap" }}>
      {record.missing.map((f) => (
        <Chip key={f} size="small" color="warning" label={translate(`resources.legal-versions.fields.${f}`)} />
      ))}
    </Box>
  );
}

/**
 * A new version starts as a copy of `from`'s particulars and texts, but never of its "in force from": the form starts
 * at now, and the server moves an earlier time to the moment it publishes (issue 46 item 18).
 */
function NewVersionButton({ from, label }: { from: LegalVersion | undefined; label: string }) {
  if (!from) return null;
  const { effectiveAt: _, ...copy } = from;
  return <CloneButton record={copy} label={label} data-testid="legal-new-version" />;
}

/** The list's create starts from the newest version's texts, not six blank documents. */
function ListActions() {
  const { data } = useGetList<LegalVersion>("legal-versions", { sort: { field: "version", order: "DESC" }, pagination: { page: 1, perPage: 1 } });
  return (
    <TopToolbar>
      <NewVersionButton from={data?.[0]} label="ra.action.create" />
    </TopToolbar>
  );
}

function NewVersionFromShown() {
  return <NewVersionButton from={useRecordContext<LegalVersion>()} label="console.legal.newVersion" />;
}

function LegalList() {
  const translate = useTranslate();
  return (
    <List sort={{ field: "version", order: "DESC" }} actions={<ListActions />}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <NumberField source="version" />
        <DateField source="effectiveAt" showTime />
        <FunctionField
          source="current"
          sortable={false}
          render={(r: LegalVersion) => (r.current ? <Chip size="small" color="primary" label={translate("console.legal.inForce")} /> : null)}
        />
        <FunctionField source="missing" sortable={false} render={(r: LegalVersion) => <MissingField record={r} />} />
        <TextField source="companyName" sortable={false} emptyText="-" />
      </Datagrid>
    </List>
  );
}

function LegalShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          {/* a published version is never edited: the next one starts as its copy */}
          <NewVersionFromShown />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <NumberField source="version" />
        <DateField source="effectiveAt" showTime />
        <FunctionField source="missing" render={(r: LegalVersion) => <MissingField record={r} />} />
        {LEGAL_FIELDS.map((f) => (
          <TextField key={f} source={f} emptyText="-" sx={{ whiteSpace: "pre-line" }} />
        ))}
        {LEGAL_DOCUMENTS.map((d) => (
          <FunctionField
            key={d}
            source={`documents.${d}`}
            label={`console.legal.documents.${d}`}
            render={(r: LegalVersion) => <Typography sx={{ whiteSpace: "pre-line" }}>{r.documents[d]?.en}</Typography>}
          />
        ))}
      </SimpleShowLayout>
    </Show>
  );
}

/** A new version: the operator's particulars and each document in English, and in the app's other languages when given. */
function LegalCreate() {
  const translate = useTranslate();
  return (
    <Create
      redirect="show"
      transform={(data: Record<string, unknown>) => ({
        ...data,
        id: undefined,
        version: undefined,
        current: undefined,
        missing: undefined,
        createdAt: undefined,
        createdById: undefined,
      })}
    >
      <SimpleForm defaultValues={{ effectiveAt: new Date() }}>
        <DateTimeInput source="effectiveAt" validate={required()} />
        {LEGAL_FIELDS.map((f) => (
          <TextInput key={f} source={f} fullWidth multiline={f === "custodianStatement" || f === "address"} />
        ))}
        <Typography variant="body2" color="text.secondary">
          {translate("console.legal.placeholders", { fields: LEGAL_FIELDS.map((f) => `{{${f}}}`).join(" ") })}
        </Typography>
        {LEGAL_DOCUMENTS.map((d) => (
          <Labeled key={d} label={`console.legal.documents.${d}`} fullWidth>
            <Box>
              {LANGUAGES.map((l) => (
                <TextInput
                  key={l}
                  source={`documents.${d}.${l}`}
                  label={`console.legal.language.${l}`}
                  validate={l === "en" ? required() : undefined}
                  fullWidth
                  multiline
                  minRows={l === "en" ? 3 : 1}
                />
              ))}
            </Box>
          </Labeled>
        ))}
      </SimpleForm>
    </Create>
  );
}

export const legalVersions = { list: LegalList, show: LegalShow, create: LegalCreate };
