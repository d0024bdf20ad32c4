import { useEffect, useState } from "react";
import { Box, Chip } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  RecordContextProvider,
  useGetOne,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  UrlField,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { getJson } from "../http.ts";
import { StaffAction } from "../common/StaffAction.tsx";
import { AgeField } from "../common/fields.tsx";
import { ConversationLines } from "../chat/index.tsx";
import { ACTION_TARGET_HOURS, REPORT_REASONS, REPORT_SOURCES, REPORT_STATUSES, REPORT_TARGETS } from "../../../server/src/contract/moderation.ts";
import { choicesOf } from "../common/choices.ts";

const REASONS = choicesOf(REPORT_REASONS);
const STATUSES = choicesOf(REPORT_STATUSES);
const TARGETS = choicesOf(REPORT_TARGETS);
const SOURCES = choicesOf(REPORT_SOURCES);

const filters = [
  <SelectInput key="status" source="status" choices={STATUSES} alwaysOn />,
  <SelectInput key="reason" source="reason" choices={REASONS} />,
  <SelectInput key="targetType" source="targetType" choices={TARGETS} />,
  <SelectInput key="source" source="source" choices={SOURCES} />,
];

/** Underage reports stand out in the queue; so does any report past the 48-hour target. */
const highlight = (r: { reason: string; breached?: boolean }) =>
  r.reason === "underage" ? { backgroundColor: "#fde7e9", "& td": { fontWeight: 600 } } : r.breached ? { backgroundColor: "#fff3e0" } : {};

/** The age clock against the 48-hour target: time left, or how far past it (breaches in red). */
function ClockField() {
  const r = useRecordContext<{ ageSeconds: number; breached: boolean; status: string }>();
  const translate = useTranslate();
  if (!r) return null;
  const hours = Math.floor(r.ageSeconds / 3600);
  if (r.breached)
    return <Chip size="small" color="error" data-clock="breached" label={translate("console.notices.breached", { hours: hours - ACTION_TARGET_HOURS })} />;
  if (r.status !== "open") return <span data-clock="met">{translate("console.notices.met")}</span>;
  return <span data-clock="left">{translate("console.notices.left", { hours: ACTION_TARGET_HOURS - hours })}</span>;
}

/** A small picture of what was reported (a video's poster, an image), so the queue shows what each report is about. */
function ThumbField() {
  const r = useRecordContext<{ thumbUrl: string | null }>();
  if (!r?.thumbUrl) return null;
  return (
    <Box
      component="img"
      src={r.thumbUrl}
      alt=""
      loading="lazy"
      data-report-thumb
      sx={{ width: 48, height: 48, objectFit: "cover", borderRadius: 1, display: "block" }}
    />
  );
}

/** The reported picture or video itself, through a signed URL that lasts a few minutes. */
function ReportPreview() {
  const r = useRecordContext();
  const translate = useTranslate();
  const [media, setMedia] = useState<{ kind: string; url: string; posterUrl: string | null } | null | undefined>(undefined);
  useEffect(() => {
    if (!r) return;
    getJson<{ media: { kind: string; url: string; posterUrl: string | null } | null }>(`reports/${r.id}/preview`)
      .then((p) => setMedia(p.media))
      .catch(() => setMedia(null));
  }, [r?.id]);
  if (media === undefined) return null;
  if (media === null) return <span>{translate("console.notices.noPreview")}</span>;
  return (
    <Box data-preview-kind={media.kind} sx={{ maxWidth: 360, "& img, & video": { maxWidth: "100%", maxHeight: 420, borderRadius: 1, display: "block" } }}>
      {media.kind === "video" ? (
        // the poster shows until the moderator presses play: without it a video is a black box
        <video src={media.url} poster={media.posterUrl ?? undefined} controls muted preload="metadata" />
      ) : media.kind === "image" ? (
        <img src={media.url} alt="" />
      ) : (
        <audio src={media.url} controls />
      )}
    </Box>
  );
}

function ReasonField() {
  const r = useRecordContext();
  const translate = useTranslate();
  if (!r) return null;
  return r.reason === "underage" ? <Chip size="small" color="error" label={translate("console.underage")} /> : <span>{r.reason}</span>;
}

function ReportActions() {
  const r = useRecordContext();
  if (r?.status !== "open") return null;
  return (
    <>
      <StaffAction resource="reports" path="dismiss" can={["update", "Report"]} label="console.action.dismiss" />
      <StaffAction resource="reports" path="takedown" can={["update", "Report"]} label="console.action.takedown" color="warning" />
      <StaffAction resource="reports" path="ban-uploader" can={["ban", "User"]} label="console.action.ban_uploader" color="error" />
    </>
  );
}

function ReportList() {
  return (
    <List filters={filters} filterDefaultValues={{ status: "open" }} sort={{ field: "createdAt", order: "ASC" }}>
      <Datagrid rowClick="show" rowSx={highlight} bulkActionButtons={false}>
        <TextField source="id" />
        <FunctionField source="thumbUrl" sortable={false} render={() => <ThumbField />} />
        <FunctionField source="reason" render={() => <ReasonField />} />
        <TextField source="targetType" />
        <TextField source="targetId" />
        <TextField source="targetUserId" />
        <TextField source="source" />
        <TextField source="status" />
        <AgeField source="ageSeconds" sortBy="createdAt" />
        <FunctionField source="breached" sortable={false} render={() => <ClockField />} />
        <FunctionField label={false} render={() => <ReportActions />} />
      </Datagrid>
    </List>
  );
}

/** A reported conversation's lines, shown on the report itself. */
function ReportedConversation({ id }: { id: number }) {
  const { data } = useGetOne("conversations", { id });
  if (!data) return null;
  return (
    <RecordContextProvider value={data}>
      <ConversationLines />
    </RecordContextProvider>
  );
}

function ReportShow() {
  return (
    <Show
      actions={
        // three actions are wider than a phone: they wrap rather than run off the screen's left edge
        <TopToolbar sx={{ gap: 1, flexWrap: "wrap" }}>
          <ReportActions />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <FunctionField source="reason" render={() => <ReasonField />} />
        <TextField source="details" />
        <TextField source="targetType" />
        <TextField source="targetId" />
        <TextField source="targetUserId" />
        <TextField source="reporterUserId" />
        <TextField source="status" />
        <FunctionField
          source="lines"
          render={(r: { targetType: string; targetId: number }) => (r.targetType === "conversation" ? <ReportedConversation id={r.targetId} /> : null)}
        />
        <FunctionField source="preview" render={() => <ReportPreview />} />
        <TextField source="source" />
        <UrlField source="reportedUrl" emptyText="-" target="_blank" rel="noreferrer" />
        <TextField source="contactName" emptyText="-" />
        <TextField source="contactEmail" emptyText="-" />
        <DateField source="swornAt" showTime emptyText="-" />
        <AgeField source="ageSeconds" />
        <FunctionField source="breached" render={() => <ClockField />} />
        <DateField source="createdAt" showTime />
        <DateField source="resolvedAt" showTime />
      </SimpleShowLayout>
    </Show>
  );
}

export const reports = { list: ReportList, show: ReportShow };
