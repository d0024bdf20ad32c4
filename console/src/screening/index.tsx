import { Alert, Box, Link } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  ReferenceField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { HOLD_CAUSES, SCREENING_STATUSES } from "../../../server/src/contract/screening.ts";
import { StaffAction } from "../common/StaffAction.tsx";

const STATUSES = SCREENING_STATUSES.map((id) => ({ id, name: id }));
const CAUSES = HOLD_CAUSES.map((id) => ({ id, name: id }));
const filters = [<SelectInput key="status" source="status" choices={STATUSES} alwaysOn />, <SelectInput key="holdCause" source="holdCause" choices={CAUSES} />];

/** Approve or reject (with a reason) while the upload is held; the server audits both. */
function Actions() {
  const r = useRecordContext();
  if (r?.status !== "held") return null;
  return (
    <Box sx={{ display: "flex", gap: 1 }} onClick={(e) => e.stopPropagation()}>
      <StaffAction
        resource="upload-screenings"
        path="review"
        body={{ decision: "approve" }}
        can={["review", "UploadScreening"]}
        label="console.screening.approve"
        color="success"
      />
      <StaffAction
        resource="upload-screenings"
        path="review"
        body={{ decision: "reject" }}
        can={["review", "UploadScreening"]}
        label="console.screening.reject"
        color="error"
      />
    </Box>
  );
}

function Preview({ size }: { size: number }) {
  const r = useRecordContext();
  if (!r?.previewUrl) return null;
  return (
    <Box
      component="img"
      src={r.previewUrl}
      alt=""
      data-testid="screening-preview"
      sx={{ width: size, height: size, objectFit: "cover", borderRadius: 1, display: "block" }}
    />
  );
}

const age = (v: unknown) => (typeof v === "number" ? v.toFixed(1) : "—");

const ScreeningList = () => {
  const translate = useTranslate();
  return (
    <List filters={filters} filterDefaultValues={{ status: "held" }} sort={{ field: "createdAt", order: "ASC" }}>
      <Alert severity="info" sx={{ m: 1 }}>
        {translate("console.screening.estimateNote")}
      </Alert>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <FunctionField source="previewUrl" sortable={false} render={() => <Preview size={96} />} />
        <TextField source="id" />
        <TextField source="uploadId" />
        <ReferenceField source="userId" reference="users" link="show" emptyText="—" />
        <TextField source="kind" sortable={false} />
        <FunctionField source="youngestAge" render={(r) => <strong data-testid="screening-age">{age(r.youngestAge)}</strong>} />
        <NumberField source="faces" emptyText="—" />
        <TextField source="holdCause" emptyText="—" />
        <TextField source="status" />
        <DateField source="createdAt" showTime />
        <FunctionField label={false} render={() => <Actions />} />
      </Datagrid>
    </List>
  );
};

const ScreeningShow = () => {
  const translate = useTranslate();
  return (
    <Show
      actions={
        <TopToolbar>
          <Actions />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <Alert severity="info">{translate("console.screening.estimateNote")}</Alert>
        <FunctionField
          source="previewUrl"
          render={(r) => (
            <Box sx={{ display: "grid", gap: 1, justifyItems: "start" }}>
              <Preview size={320} />
              {r.fileUrl && (
                <Link href={r.fileUrl} target="_blank" rel="noreferrer">
                  {translate("console.screening.open")}
                </Link>
              )}
            </Box>
          )}
        />
        <TextField source="uploadId" />
        <ReferenceField source="userId" reference="users" link="show" emptyText="—" />
        <TextField source="kind" />
        <FunctionField source="youngestAge" render={(r) => age(r.youngestAge)} />
        <NumberField source="faces" emptyText="—" />
        <NumberField source="framesChecked" />
        <TextField source="holdCause" emptyText="—" />
        <TextField source="status" />
        <TextField source="reviewedBy" emptyText="—" />
        <TextField source="reviewReason" emptyText="—" />
        <DateField source="reviewedAt" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
};

/** Upload screening (issue 19): the queue of uploads held for an apparent age under the threshold. */
export const uploadScreenings = { list: ScreeningList, show: ScreeningShow };
