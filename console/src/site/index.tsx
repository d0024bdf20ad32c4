import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  Edit,
  List,
  NumberField,
  NumberInput,
  CreateButton,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  required,
  useRecordContext,
} from "react-admin";
import { BRAND_SETTING } from "../../../server/src/contract/brand.ts";
import { JsonField } from "../common/fields.tsx";
import { TranslationInputs } from "../common/TranslationInputs.tsx";
import { BrandButton, BrandForm } from "./brand.tsx";
import { REWARDS_SETTING } from "../../../server/src/contract/rewards.ts";
import { CHAT_MEDIA_SETTING } from "../../../server/src/contract/chat.ts";
import { ChatMediaForm, ChatMediaSettingButton } from "./chat-media.tsx";
import { RewardsButton, RewardsForm } from "./rewards.tsx";

const BannerForm = () => (
  <SimpleForm>
    <TextInput source="title" validate={required()} />
    <TranslationInputs source="titles" />
    <TextInput source="imageUrl" validate={required()} fullWidth />
    <TextInput source="link" fullWidth />
    <NumberInput source="sortOrder" min={0} />
    <BooleanInput source="enabled" />
  </SimpleForm>
);

export const banners = {
  list: () => (
    <List sort={{ field: "sortOrder", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="sortOrder" />
        <TextField source="title" />
        <TextField source="imageUrl" />
        <TextField source="link" />
        <BooleanField source="enabled" />
      </Datagrid>
    </List>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic">
      <BannerForm />
    </Edit>
  ),
  create: () => (
    <Create redirect="list">
      <BannerForm />
    </Create>
  ),
};

const PromptForm = () => (
  <SimpleForm>
    <TextInput source="text" validate={required()} multiline fullWidth />
    <TranslationInputs source="texts" multiline />
    <TextInput source="category" />
    <NumberInput source="sortOrder" min={0} />
    <BooleanInput source="enabled" />
  </SimpleForm>
);

export const prompts = {
  list: () => (
    <List sort={{ field: "sortOrder", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="sortOrder" />
        <TextField source="text" />
        <TextField source="category" />
        <BooleanField source="enabled" />
      </Datagrid>
    </List>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic">
      <PromptForm />
    </Edit>
  ),
  create: () => (
    <Create redirect="list">
      <PromptForm />
    </Create>
  ),
};

const jsonText = { format: (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? null, null, 2)), parse: (v: string) => v };

/** The brand, the gifts and chat media have their own forms; every other setting is edited as JSON. */
function SettingForm() {
  const record = useRecordContext();
  if (record?.id === BRAND_SETTING) return <BrandForm />;
  if (record?.id === REWARDS_SETTING) return <RewardsForm />;
  if (record?.id === CHAT_MEDIA_SETTING) return <ChatMediaForm />;
  return (
    <SimpleForm>
      <TextField source="id" />
      <TextInput source="value" multiline minRows={6} fullWidth {...jsonText} />
    </SimpleForm>
  );
}

export const settings = {
  list: () => (
    <List
      sort={{ field: "id", order: "ASC" }}
      // the brand and gifts buttons show even before any setting is saved
      empty={false}
      actions={
        <TopToolbar>
          <BrandButton />
          <RewardsButton />
          <ChatMediaSettingButton />
          <CreateButton />
        </TopToolbar>
      }
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <JsonField source="value" />
        <DateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic">
      <SettingForm />
    </Edit>
  ),
  create: () => (
    <Create redirect="list">
      <SimpleForm>
        <TextInput source="key" validate={required()} />
        <TextInput source="value" multiline minRows={6} fullWidth validate={required()} {...jsonText} />
      </SimpleForm>
    </Create>
  ),
};
