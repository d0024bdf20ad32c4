import { Alert, Box, Typography } from "@mui/material";
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
import { StaffAction } from "../common/StaffAction.tsx";
import { POLICY_HIT_SOURCES } from "../../../server/src/contract/chat.ts";

const user = <ReferenceField key="userId" source="userId" reference="users" link="show" emptyText="—" />;

/** A conversation's lines, in order, as the person and the character wrote them (what a report points at). */
export function ConversationLines() {
  const r = useRecordContext<{ lines?: { id: number; role: string; content: string; status: string; createdAt: string }[] }>();
  const translate = useTranslate();
  if (!r?.lines) return null;
  return (
    <Box sx={{ display: "grid", gap: 1, maxWidth: 760 }} data-testid="conversation-lines">
      {r.lines.map((l) => (
        <Box
          key={l.id}
          sx={{ p: 1.25, borderRadius: 2, bgcolor: l.role === "user" ? "#eef2ff" : "#f5f5f5", ml: l.role === "user" ? 6 : 0, mr: l.role === "user" ? 0 : 6 }}
        >
          <Typography variant="caption" color="text.secondary">
            #{l.id} · {translate(`console.chat.role.${l.role}`)} · {l.status} · {new Date(l.createdAt).toLocaleString()}
          </Typography>
          <Typography sx={{ whiteSpace: "pre-wrap" }}>{l.content || "—"}</Typography>
        </Box>
      ))}
    </Box>
  );
}

const ConversationList = () => (
  <List sort={{ field: "lastMessageAt", order: "DESC" }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="id" />
      {user}
      <ReferenceField source="characterId" reference="characters" link="show" />
      <TextField source="state" />
      <DateField source="lastMessageAt" showTime />
      <DateField source="deletedAt" showTime emptyText="—" />
    </Datagrid>
  </List>
);

const ConversationShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="id" />
      {user}
      <ReferenceField source="characterId" reference="characters" link="show" />
      <TextField source="state" />
      <TextField source="summary" emptyText="—" />
      <DateField source="createdAt" showTime />
      <DateField source="deletedAt" showTime emptyText="—" />
      <FunctionField source="lines" render={() => <ConversationLines />} />
    </SimpleShowLayout>
  </Show>
);

export const conversations = { list: ConversationList, show: ConversationShow };

const SOURCES = POLICY_HIT_SOURCES.map((id) => ({ id, name: id }));

const PolicyHitList = () => (
  <List filters={[<SelectInput key="source" source="source" choices={SOURCES} alwaysOn />]} sort={{ field: "id", order: "DESC" }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="id" />
      {user}
      <TextField source="source" />
      <TextField source="rule" />
      <ReferenceField source="conversationId" reference="conversations" link="show" emptyText="—" />
      <FunctionField source="excerpt" render={(r: { excerpt: string }) => (r.excerpt.length > 80 ? `${r.excerpt.slice(0, 80)}…` : r.excerpt)} />
      <DateField source="createdAt" showTime />
    </Datagrid>
  </List>
);

const PolicyHitShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="id" />
      {user}
      <TextField source="source" />
      <TextField source="rule" />
      <ReferenceField source="conversationId" reference="conversations" link="show" emptyText="—" />
      <ReferenceField source="characterId" reference="characters" link="show" emptyText="—" />
      <TextField source="excerpt" />
      <DateField source="createdAt" showTime />
    </SimpleShowLayout>
  </Show>
);

export const chatPolicyHits = { list: PolicyHitList, show: PolicyHitShow };

const SuspensionList = () => (
  <List sort={{ field: "lastHitAt", order: "DESC" }} exporter={false}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      {user}
      <NumberField source="hits" />
      <DateField source="lastHitAt" showTime />
    </Datagrid>
  </List>
);

/** Why chat was suspended: the hits that count toward it, each with its rule and what was written. */
function SuspensionHits() {
  const r = useRecordContext<{
    policyHits?: { id: number; source: string; rule: string; excerpt: string; conversationId: number | null; createdAt: string }[];
  }>();
  const translate = useTranslate();
  if (!r?.policyHits) return null;
  if (!r.policyHits.length) return <Typography color="text.secondary">{translate("console.chat.noHits")}</Typography>;
  return (
    <Box sx={{ display: "grid", gap: 1, maxWidth: 760 }} data-testid="suspension-hits">
      {r.policyHits.map((h) => (
        <Box key={h.id} sx={{ p: 1.25, borderRadius: 2, bgcolor: "#fff4e5" }}>
          <Typography variant="caption" color="text.secondary">
            #{h.id} · {h.rule} · {h.source}
            {h.conversationId ? ` · ${translate("resources.conversations.name", { smart_count: 1 })} ${h.conversationId}` : ""} ·{" "}
            {new Date(h.createdAt).toLocaleString()}
          </Typography>
          <Typography sx={{ whiteSpace: "pre-wrap" }}>{h.excerpt}</Typography>
        </Box>
      ))}
    </Box>
  );
}

function SuspensionActions() {
  const r = useRecordContext<{ suspended?: boolean }>();
  if (!r?.suspended) return null;
  return (
    <TopToolbar>
      <StaffAction resource="chat-suspensions" path="lift" can={["update", "ChatSuspension"]} label="console.action.lift_chat_suspension" color="success" />
    </TopToolbar>
  );
}

const SuspensionShow = () => (
  <Show actions={<SuspensionActions />}>
    <SimpleShowLayout>
      {user}
      <FunctionField source="suspended" render={(r: { suspended: boolean }) => <SuspendedLabel suspended={r.suspended} />} />
      <NumberField source="hits" />
      <NumberField source="strikes" />
      <FunctionField source="policyHits" render={() => <SuspensionHits />} />
    </SimpleShowLayout>
  </Show>
);

function SuspendedLabel({ suspended }: { suspended: boolean }) {
  const translate = useTranslate();
  return <Typography data-testid="suspension-state">{translate(suspended ? "console.chat.suspended" : "console.chat.notSuspended")}</Typography>;
}

export const chatSuspensions = { list: SuspensionList, show: SuspensionShow };

/** With no back end configured the list says how to configure one (chat itself tells users it is not available). */
function NoBackend() {
  const translate = useTranslate();
  return (
    <Alert severity="warning" sx={{ m: 2 }} data-testid="chat-backends-empty">
      {translate("console.chat.notConfigured")}
    </Alert>
  );
}

const BackendList = () => (
  <List pagination={false} empty={<NoBackend />} exporter={false}>
    <Datagrid bulkActionButtons={false} rowClick={false}>
      <TextField source="name" />
      <TextField source="model" />
      <FunctionField source="tiers" render={(r: { tiers: string[] }) => r.tiers.join(", ")} />
      <NumberField source="requests" />
      <NumberField source="errors" />
      <NumberField source="prompt_tokens" />
      <NumberField source="completion_tokens" />
      <NumberField source="p50_first_token_ms" emptyText="—" />
      <NumberField source="p95_first_token_ms" emptyText="—" />
      <NumberField source="avg_total_ms" emptyText="—" />
      <TextField source="last_error" emptyText="—" />
    </Datagrid>
  </List>
);

export const chatBackends = { list: BackendList };
