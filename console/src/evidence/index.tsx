import { useEffect, useState } from "react";
import { Box } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { StaffAction } from "../common/StaffAction.tsx";
import { getJson } from "../http.ts";

/** The CyberTipline package, saved as a JSON file for the admin who files the report by hand. */
function download(pkg: unknown) {
  const p = pkg as { evidence_id: number };
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(pkg, null, 2)], { type: "application/json" }));
  link.download = `cybertipline-evidence-${p.evidence_id}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

function EvidenceFile() {
  const r = useRecordContext();
  const [file, setFile] = useState<{ kind: string; url: string } | null>(null);
  useEffect(() => {
    if (r) void getJson<{ kind: string; url: string }>(`evidence/${r.id}/file`).then(setFile);
  }, [r?.id]);
  if (!file) return null;
  return (
    <Box data-evidence-kind={file.kind} sx={{ maxWidth: 360, "& img, & video": { maxWidth: "100%", maxHeight: 420, display: "block" } }}>
      {file.kind === "video" ? (
        <video src={file.url} controls muted preload="metadata" />
      ) : file.kind === "image" ? (
        <img src={file.url} alt="" />
      ) : (
        <audio src={file.url} controls />
      )}
    </Box>
  );
}

function ExportAction() {
  return <StaffAction resource="evidence" path="export" can={["read", "Evidence"]} label="console.notices.exportPackage" color="error" onDone={download} />;
}

function EvidenceList() {
  const translate = useTranslate();
  return (
    <List sort={{ field: "id", order: "DESC" }} title={translate("console.notices.evidenceTitle")}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="targetType" />
        <TextField source="targetId" />
        <TextField source="userId" />
        <TextField source="reportId" />
        <NumberField source="sizeBytes" />
        <DateField source="createdAt" showTime />
        <DateField source="keepUntil" />
        <FunctionField label={false} render={() => <ExportAction />} />
      </Datagrid>
    </List>
  );
}

function EvidenceShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <ExportAction />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" />
        <FunctionField source="file" render={() => <EvidenceFile />} />
        <TextField source="targetType" />
        <TextField source="targetId" />
        <TextField source="userId" />
        <TextField source="reportId" />
        <TextField source="sourceKey" />
        <TextField source="mime" />
        <NumberField source="sizeBytes" />
        <TextField source="sha256" />
        <TextField source="md5" />
        <DateField source="createdAt" showTime />
        <DateField source="keepUntil" />
      </SimpleShowLayout>
    </Show>
  );
}

export const evidence = { list: EvidenceList, show: EvidenceShow };
