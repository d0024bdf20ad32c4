import ImageIcon from "@mui/icons-material/Image";
import LightbulbIcon from "@mui/icons-material/Lightbulb";
import SettingsIcon from "@mui/icons-material/Settings";
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
  SimpleForm,
  TextField,
  TextInput,
  required,
} from "react-admin";
import { JsonField } from "../common/fields.tsx";
import { TranslationInputs } from "../common/TranslationInputs.tsx";

const BannerForm = () => (
  <SimpleForm>
    <TextInput source="title" validate={required()} />
    <TextInput source="imageUrl" validate={required()} fullWidth />
    <TextInput source="link" fullWidth />
    <NumberInput source="sortOrder" min={0} />
    <BooleanInput source="enabled" />
  </SimpleForm>
);

export const banners = {
  icon: ImageIcon,
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
  icon: LightbulbIcon,
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

export const settings = {
  icon: SettingsIcon,
  list: () => (
    <List sort={{ field: "id", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <JsonField source="value" />
        <DateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic">
      <SimpleForm>
        <TextField source="id" />
        <TextInput source="value" multiline minRows={6} fullWidth {...jsonText} />
      </SimpleForm>
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
