import {
  BooleanInput,
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  NumberInput,
  Pagination,
  ReferenceManyField,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  required,
  useTranslate,
  Labeled,
  useRecordContext,
  CreateButton,
  useCanAccess,
  EditButton,
  FunctionField,
  type RaRecord,
} from "react-admin";
import Box from "@mui/material/Box";
import {
  DEFAULT_CHANNEL,
  PIXEL_EVENTS,
  PIXEL_FLAGS,
  PIXEL_KINDS,
  SERVER_CONVERSION_VENDORS,
  type ServerConversionVendor,
} from "../../../server/src/contract/pixels.ts";
import { FlagField } from "../common/fields.tsx";
import { ChannelSecrets } from "./ChannelSecrets.tsx";
import { choicesOf } from "../common/choices.ts";

/** The eight switches, SPEC.md §3 order. */
export const FLAGS = PIXEL_FLAGS.map(([column]) => column);
/** Pixel kinds 1..8 (SPEC.md §3). */
export const KINDS = PIXEL_KINDS.map((name, i) => ({ id: i + 1, name }));
const EVENTS = choicesOf(PIXEL_EVENTS);

/**
 * Which visitors a channel's rules (pixels, "Payment needs permission") apply to: the default channel also covers
 * everyone who came without a channel or with an unknown one (issue 35 item 4).
 */
function Covers({ record }: { record?: RaRecord }) {
  const translate = useTranslate();
  const current = useRecordContext();
  const code = (record ?? current)?.code as string | undefined;
  if (!code) return null;
  return code === DEFAULT_CHANNEL ? translate("console.channelCovers.default") : translate("console.channelCovers.other", { code });
}

function ChannelList() {
  return (
    <List filters={[<SearchInput key="q" source="q" alwaysOn />]} sort={{ field: "id", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="code" />
        <TextField source="name" />
        <FunctionField label="console.channelCovers.label" render={(r) => <Covers record={r} />} />
        {FLAGS.map((f) => (
          <FlagField key={f} source={f} />
        ))}
      </Datagrid>
    </List>
  );
}

/** A switch stored as 1 / 0. */
const onOff = { format: (v: unknown) => v === 1, parse: (v: boolean) => (v ? 1 : 0) };

function ChannelForm({ withPixels }: { withPixels?: boolean }) {
  return (
    <SimpleForm>
      <TextInput source="code" validate={required()} />
      <TextInput source="name" validate={required()} />
      <Labeled label="console.channelCovers.label">
        <Covers />
      </Labeled>
      {FLAGS.map((f) => (
        <BooleanInput key={f} source={f} {...onOff} />
      ))}
      <BooleanInput source="requiresPaymentPermission" />
      <ServerConversions />
      {withPixels && <PixelIds />}
    </SimpleForm>
  );
}

/**
 * Per-vendor ids of the server's own purchase conversions (docs/decisions/121); a vendor left empty is off. Its
 * tokens are not form fields: admins set them one by one in the secret store (ChannelSecrets, decision 191).
 */
const SERVER_CONVERSION_IDS = {
  meta: ["pixelId", "testEventCode"],
  tiktok: ["pixelCode", "testEventCode"],
  google_ads: ["customerId", "conversionActionId", "clientId", "loginCustomerId"],
} satisfies Record<ServerConversionVendor, string[]>;

function ServerConversions() {
  const translate = useTranslate();
  return (
    <Labeled label={translate("console.tab.serverConversions")} fullWidth>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" }, columnGap: 2 }}>
        {SERVER_CONVERSION_VENDORS.map((vendor) => (
          <Box key={vendor}>
            {SERVER_CONVERSION_IDS[vendor].map((field) => (
              <TextInput key={field} source={`serverConversions.${vendor}.${field}`} fullWidth />
            ))}
            <ChannelSecrets vendor={vendor} />
          </Box>
        ))}
      </Box>
    </Labeled>
  );
}

function PixelIds() {
  const translate = useTranslate();
  const channel = useRecordContext();
  const { canAccess } = useCanAccess({ action: "create", resource: "pixel-ids" });
  if (!channel) return null;
  return (
    <Labeled label={translate("console.tab.pixels")} fullWidth>
      <>
        <ReferenceManyField reference="pixel-ids" target="channelId" sort={{ field: "kind", order: "ASC" }} pagination={<Pagination />}>
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <SelectInputLike />
            <TextField source="event" />
            <TextField source="value" />
            <EditButton />
            <DeleteButton mutationMode="pessimistic" redirect={false} />
          </Datagrid>
        </ReferenceManyField>
        {canAccess && <CreateButton resource="pixel-ids" state={{ record: { channelId: channel.id } }} />}
      </>
    </Labeled>
  );
}

/** The kind as its name (Facebook, TikTok, ...). */
function SelectInputLike() {
  const r = useRecordContext();
  return <span>{KINDS.find((k) => k.id === r?.kind)?.name ?? r?.kind}</span>;
}

const ChannelEdit = () => (
  <Edit mutationMode="pessimistic">
    <ChannelForm withPixels />
  </Edit>
);
const ChannelCreate = () => (
  <Create redirect="edit">
    <ChannelForm />
  </Create>
);

function PixelIdForm() {
  return (
    <SimpleForm>
      <NumberInput source="channelId" validate={required()} readOnly />
      <SelectInput source="kind" choices={KINDS} validate={required()} />
      <SelectInput source="event" choices={EVENTS} emptyText="—" />
      <TextInput source="value" validate={required()} fullWidth />
    </SimpleForm>
  );
}

const redirectToChannel = (_resource?: string, _id?: unknown, data?: Partial<RaRecord>) => `channels/${data?.channelId}`;
const PixelIdCreate = () => (
  <Create redirect={redirectToChannel}>
    <PixelIdForm />
  </Create>
);
const PixelIdEdit = () => (
  <Edit mutationMode="pessimistic" redirect={redirectToChannel}>
    <PixelIdForm />
  </Edit>
);

export const channels = { list: ChannelList, edit: ChannelEdit, create: ChannelCreate };
export const pixelIds = { edit: PixelIdEdit, create: PixelIdCreate };
