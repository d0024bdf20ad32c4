import { useState } from "react";
import { Box, Button, Chip, Paper, TextField as MuiTextField, Typography } from "@mui/material";
import {
  Datagrid,
  FunctionField,
  List,
  ReferenceField,
  SelectInput,
  Show,
  TextField,
  TopToolbar,
  useCanAccess,
  useCanAccessResources,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUpdate,
} from "react-admin";
import { SUPPORT_MESSAGE_MAX, SUPPORT_THREAD_STATUSES } from "../../../server/src/contract/support.ts";
import { choicesOf } from "../common/choices.ts";
import { AgeField } from "../common/fields.tsx";
import { PersonLedger, PersonOrders } from "../users/index.tsx";
import { postJson, type AdminJson } from "../http.ts";

type Thread = AdminJson<"/admin/api/support-threads/{id}">;

/** Who has the thread: "me" for the reader, else the staff member's number (support may not read the staff list). */
function AssigneeField() {
  const r = useRecordContext<Thread>();
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  if (!r) return null;
  if (r.assigneeId === null) return <Chip size="small" label={translate("console.support.unassigned")} />;
  return <span>{identity && Number(identity.id) === r.assigneeId ? translate("console.support.me") : `#${r.assigneeId}`}</span>;
}

function SupportList() {
  return (
    <List
      filters={[<SelectInput key="status" source="status" choices={choicesOf(SUPPORT_THREAD_STATUSES)} alwaysOn />]}
      filterDefaultValues={{ status: "open" }}
      sort={{ field: "lastMessageAt", order: "ASC" }}
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="status" />
        <AgeField source="ageSeconds" sortable={false} />
        <TextField source="userId" />
        <TextField source="orderId" emptyText="-" />
        <FunctionField source="assigneeId" render={() => <AssigneeField />} />
        <TextField source="preview" sortable={false} sx={{ display: "block", maxWidth: 360, overflowWrap: "anywhere" }} />
      </Datagrid>
    </List>
  );
}

/** Take the thread, or close it: a plain update of the record (audited by the server). */
function ThreadActions() {
  const r = useRecordContext<Thread>();
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const [update, { isPending }] = useUpdate();
  const { canAccess } = useCanAccess({ action: "edit", resource: "support-threads" });
  if (!r || !canAccess) return null;
  const change = (data: Partial<Thread>) => update("support-threads", { id: r.id, data, previousData: r }, { mutationMode: "pessimistic" });
  return (
    <TopToolbar sx={{ gap: 1 }}>
      {identity && r.assigneeId !== Number(identity.id) && (
        <Button disabled={isPending} onClick={() => change({ assigneeId: Number(identity.id) })} data-testid="support-take">
          {translate("console.support.take")}
        </Button>
      )}
      {r.status !== "closed" && (
        <Button color="warning" disabled={isPending} onClick={() => change({ status: "closed" })} data-testid="support-close">
          {translate("console.support.close")}
        </Button>
      )}
    </TopToolbar>
  );
}

/** Support's answer: shown in the person's bubble, and emailed when they have an address. */
function ReplyBox() {
  const r = useRecordContext<Thread>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const { canAccess } = useCanAccess({ action: "update", resource: "SupportThread" });
  if (!r || !canAccess || r.status === "closed") return null;
  const send = () => {
    setBusy(true);
    postJson(`support-threads/${r.id}/reply`, { body: text })
      .then(
        () => {
          setText("");
          refresh();
        },
        (err: Error) => notify(err.message, { type: "error" }),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Box sx={{ display: "grid", gap: 1, mt: 2 }}>
      <MuiTextField
        multiline
        minRows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        label={translate("console.support.reply")}
        slotProps={{ htmlInput: { maxLength: SUPPORT_MESSAGE_MAX, "data-testid": "support-reply-input" } }}
      />
      <Button variant="contained" disabled={busy || !text.trim()} onClick={send} data-testid="support-reply-send">
        {translate("console.support.send")}
      </Button>
    </Box>
  );
}

function Conversation() {
  const r = useRecordContext<Thread>();
  const translate = useTranslate();
  // the queue's row (no conversation) stands in for the thread until the thread itself is read
  if (!r?.messages) return null;
  return (
    <Box sx={{ display: "grid", gap: 1 }} data-testid="support-conversation">
      {r.messages.map((m) => (
        <Paper
          key={m.id}
          variant="outlined"
          sx={{ p: 1.5, justifySelf: m.author === "staff" ? "end" : "start", maxWidth: "85%", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}
        >
          <Typography variant="caption" color="text.secondary">
            {m.author === "staff" ? translate("console.support.staffWrote", { id: m.staffId ?? "-" }) : translate("console.support.personWrote")} ·{" "}
            {new Date(m.createdAt).toLocaleString()}
          </Typography>
          <Typography variant="body2">{m.body}</Typography>
        </Paper>
      ))}
    </Box>
  );
}

/** The person's orders and ledger beside the conversation, for whoever may read them. */
function PersonBeside() {
  const translate = useTranslate();
  const { canAccess } = useCanAccessResources({ action: "list", resources: ["orders", "ledger"] });
  return (
    <Box sx={{ display: "grid", gap: 2, alignContent: "start" }} data-testid="support-person">
      <ReferenceField source="userId" reference="users" link="show" />
      {canAccess?.orders && (
        <Box sx={{ overflowX: "auto" }}>
          <Typography variant="subtitle2">{translate("console.tab.orders")}</Typography>
          <PersonOrders source="userId" perPage={5} />
        </Box>
      )}
      {canAccess?.ledger && (
        <Box sx={{ overflowX: "auto" }}>
          <Typography variant="subtitle2">{translate("console.tab.ledger")}</Typography>
          <PersonLedger source="userId" perPage={5} />
        </Box>
      )}
    </Box>
  );
}

function SupportShow() {
  const translate = useTranslate();
  return (
    <Show actions={<ThreadActions />}>
      {/* minmax(0, …): a plain 1fr column grows to its widest content (the person's order and ledger tables), which
          widened the whole card past a phone's screen and cut the conversation and the answer box (issue 46 item 6) */}
      <Box sx={{ p: 2, display: "grid", gap: 3, gridTemplateColumns: { xs: "minmax(0, 1fr)", lg: "minmax(0, 3fr) minmax(0, 2fr)" } }}>
        <Box>
          <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap", mb: 2, alignItems: "center" }}>
            <FunctionField render={(r: Thread) => <Typography variant="h6">#{r.id}</Typography>} />
            <TextField source="status" />
            <AgeField source="ageSeconds" />
            <Typography variant="body2">
              {translate("resources.support-threads.fields.assigneeId")}: <AssigneeField />
            </Typography>
            <ReferenceField source="orderId" reference="orders" link="show" emptyText="-" />
          </Box>
          <Conversation />
          <ReplyBox />
        </Box>
        <PersonBeside />
      </Box>
    </Show>
  );
}

export const supportThreads = { list: SupportList, show: SupportShow };
