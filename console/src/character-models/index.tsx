import { Box, Card, CardContent, CardMedia, Chip, Typography } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  ReferenceField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { CONTENT_STATES } from "../../../server/src/contract/moderation.ts";
import { TRAINING_STATUSES } from "../../../server/src/contract/training.ts";
import { StaffAction } from "../common/StaffAction.tsx";
import type { AdminJson } from "../http.ts";

const STATUSES = TRAINING_STATUSES.map((id) => ({ id, name: id }));
const STATES = CONTENT_STATES.map((id) => ({ id, name: id }));
const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />,
  <SelectInput key="state" source="state" choices={STATES} />,
];

type PhotoRow = NonNullable<AdminJson<"/admin/api/character-models/{id}">["consent"]>["photos"][number];

/** Review (approve / reject with a reason) while the set waits; takedown while the model is not removed. */
function Actions() {
  const r = useRecordContext();
  if (!r) return null;
  return (
    <Box sx={{ display: "flex", gap: 1 }} onClick={(e) => e.stopPropagation()}>
      {r.status === "review" && (
        <StaffAction
          resource="character-models"
          path="review"
          body={{ decision: "approve" }}
          can={["review", "TrainingConsent"]}
          label="console.training.approve"
          color="success"
        />
      )}
      {r.status === "review" && (
        <StaffAction
          resource="character-models"
          path="review"
          body={{ decision: "reject" }}
          can={["review", "TrainingConsent"]}
          label="console.training.reject"
          color="error"
        />
      )}
      {r.state !== "removed" && (
        <StaffAction resource="character-models" path="takedown" can={["takedown", "CharacterModel"]} label="console.action.takedown" color="warning" />
      )}
    </Box>
  );
}

/** The likeness-consent record: the two selfie frames, then every photo with its face check and apparent age. */
function ConsentRecord() {
  const r = useRecordContext();
  const translate = useTranslate();
  const c = r?.consent;
  if (!c) return <Typography color="text.secondary">{translate("console.training.noConsent")}</Typography>;
  return (
    <Box sx={{ display: "grid", gap: 2 }} data-testid="consent-record">
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center" }}>
        <Chip label={`${translate("console.training.decision")}: ${c.decision}`} color={c.decision === "held" ? "warning" : "default"} />
        <Chip label={`${translate("console.training.minAge")}: ${c.minAge === null ? "—" : Number(c.minAge).toFixed(1)}`} />
        {c.reviewReason && <Chip label={`${translate("console.field.reason")}: ${c.reviewReason}`} />}
      </Box>
      <Typography variant="subtitle2">{translate("console.training.selfie")}</Typography>
      <Box sx={{ display: "flex", gap: 1 }}>
        {(c.selfieUrls as string[]).map((u) => (
          <Box key={u} component="img" src={u} alt="" sx={{ width: 140, height: 180, objectFit: "cover", borderRadius: 1 }} />
        ))}
      </Box>
      <Typography variant="subtitle2">{translate("console.training.photos")}</Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))", gap: 1 }}>
        {(c.photos as PhotoRow[]).map((p) => (
          <Card key={p.uploadId} variant="outlined">
            {p.url && <CardMedia component="img" image={p.url} sx={{ height: 140, objectFit: "cover" }} />}
            <CardContent sx={{ p: 1, "&:last-child": { pb: 1 } }}>
              <Typography variant="caption" component="div">
                {p.check?.verdict ?? "—"}
              </Typography>
              <Typography variant="caption" component="div">
                {translate("console.training.match")}: {p.check?.similarity?.toFixed(2) ?? "—"}
              </Typography>
              <Typography variant="caption" component="div">
                {translate("console.training.age")}: {p.check?.age?.toFixed(1) ?? "—"}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}

const ModelList = () => (
  <List filters={filters} sort={{ field: "id", order: "DESC" }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="id" />
      <TextField source="name" />
      <TextField source="homeLink" />
      <ReferenceField source="userId" reference="users" link="show" emptyText="—" />
      <TextField source="status" />
      <TextField source="state" />
      <NumberField source="minAge" options={{ maximumFractionDigits: 1 }} />
      <DateField source="createdAt" showTime />
      <FunctionField label={false} render={() => <Actions />} />
    </Datagrid>
  </List>
);

const ModelShow = () => (
  <Show
    actions={
      <TopToolbar>
        <Actions />
      </TopToolbar>
    }
  >
    <SimpleShowLayout>
      <TextField source="id" />
      <TextField source="name" />
      <TextField source="homeLink" />
      <ReferenceField source="userId" reference="users" link="show" emptyText="—" />
      <TextField source="status" />
      <TextField source="state" />
      <TextField source="error" emptyText="—" />
      <TextField source="trainer" emptyText="—" />
      <NumberField source="weightsBytes" emptyText="—" />
      <DateField source="createdAt" showTime />
      <DateField source="finishedAt" showTime emptyText="—" />
      <FunctionField source="consent" render={() => <ConsentRecord />} />
    </SimpleShowLayout>
  </Show>
);

/** Trained character models: the training review queue (filter status = review) and takedown (issue 14). */
export const characterModels = { list: ModelList, show: ModelShow };
