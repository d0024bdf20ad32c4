import { Box, Chip, Typography } from "@mui/material";
import {
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberField,
  ReferenceField,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
  useTranslate,
} from "react-admin";
import type { AdminJson } from "../http.ts";

type ThreadRecord = AdminJson<"/admin/api/reported-threads/{id}">;

const user = (source: string) => <ReferenceField key={source} source={source} reference="users" link="show" emptyText="—" />;

/**
 * A reported thread's messages in order (docs/decisions/310): the fan's on the right, the creator's on the left; a
 * reported one outlined, a held or taken-down one marked. The decision is made on the report itself.
 */
function ThreadLines() {
  const r = useRecordContext<ThreadRecord>();
  const translate = useTranslate();
  if (!r?.messages) return null;
  return (
    <Box sx={{ display: "grid", gap: 1, maxWidth: 760 }} data-testid="reported-thread-lines">
      {r.messages.map((m) => (
        <Box
          key={m.id}
          data-reported={m.reported ? "1" : "0"}
          sx={{
            p: 1.25,
            borderRadius: 2,
            bgcolor: m.sender === "fan" ? "#eef2ff" : "#f5f5f5",
            ml: m.sender === "fan" ? 6 : 0,
            mr: m.sender === "fan" ? 0 : 6,
            outline: m.reported ? "2px solid #d32f2f" : "none",
          }}
        >
          <Typography variant="caption" color="text.secondary">
            #{m.id} · {translate(`console.messages.sender.${m.sender}`)} · {m.state} · {new Date(m.createdAt).toLocaleString()}
          </Typography>
          <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{m.body || "—"}</Typography>
          <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", mt: 0.5 }}>
            {m.libraryItemId !== null && <Chip size="small" label={translate("console.messages.item", { id: m.libraryItemId })} />}
            {m.price > 0 && <Chip size="small" label={translate(m.unlocked ? "console.messages.unlocked" : "console.messages.locked", { price: m.price })} />}
            {m.reported && <Chip size="small" color="error" label={translate("console.messages.reports", { count: m.reports })} />}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

const ReportedThreadList = () => (
  <List sort={{ field: "lastReportedAt", order: "DESC" }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="id" sortable={false} />
      <TextField source="homeLink" sortable={false} />
      {user("creatorUserId")}
      {user("fanUserId")}
      <NumberField source="reports" sortable={false} />
      <NumberField source="openReports" sortable={false} />
      <DateField source="lastReportedAt" showTime />
    </Datagrid>
  </List>
);

const ReportedThreadShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="id" />
      <TextField source="homeLink" />
      {user("creatorUserId")}
      {user("fanUserId")}
      <NumberField source="reports" />
      <NumberField source="openReports" />
      <DateField source="lastReportedAt" showTime />
      <FunctionField source="messages" render={() => <ThreadLines />} />
    </SimpleShowLayout>
  </Show>
);

export const reportedThreads = { list: ReportedThreadList, show: ReportedThreadShow };
