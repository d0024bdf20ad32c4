import StorefrontIcon from "@mui/icons-material/Storefront";
import {
  ArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  DateTimeInput,
  Edit,
  List,
  NumberField,
  NumberInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  required,
} from "react-admin";
import { PRODUCT_KINDS } from "../../../server/src/contract/orders.ts";
import { choicesOf } from "../common/choices.ts";
import { TranslationInputs } from "../common/TranslationInputs.tsx";

/** Prices are minor units (cents); a sale needs its price, start and end, and the server refuses one a regular pack beats. */
const ProductForm = ({ creating = false }: { creating?: boolean }) => (
  <SimpleForm>
    <TextInput source="code" validate={required()} disabled={!creating} />
    <TextInput source="name" validate={required()} fullWidth />
    <TranslationInputs source="names" />
    <SelectInput source="kind" choices={choicesOf(PRODUCT_KINDS)} defaultValue="credits" />
    <NumberInput source="credits" min={1} validate={required()} />
    <NumberInput source="bonusCredits" min={0} defaultValue={0} />
    <NumberInput source="priceMinor" min={1} validate={required()} />
    <TextInput source="currency" defaultValue="USD" />
    <NumberInput source="salePriceMinor" min={1} />
    <DateTimeInput source="saleStartsAt" />
    <DateTimeInput source="saleEndsAt" />
    <NumberInput source="perUserLimit" min={1} />
    <NumberInput source="intervalDays" min={1} />
    <ArrayInput source="channels">
      <SimpleFormIterator inline>
        <TextInput source="" />
      </SimpleFormIterator>
    </ArrayInput>
    <NumberInput source="sortOrder" min={0} defaultValue={0} />
    <BooleanInput source="active" defaultValue />
  </SimpleForm>
);

/** Issue 35 item 1: credit packs, plans and sales; "best value" and "sale running" are computed by the server. */
export const products = {
  icon: StorefrontIcon,
  list: () => (
    <List sort={{ field: "sortOrder", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="sortOrder" />
        <TextField source="name" />
        <TextField source="kind" />
        <NumberField source="credits" />
        <NumberField source="priceMinor" />
        <NumberField source="salePriceMinor" />
        <DateField source="saleEndsAt" showTime />
        <BooleanField source="saleRunning" />
        <BooleanField source="bestValue" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  ),
  edit: () => (
    <Edit mutationMode="pessimistic">
      <ProductForm />
    </Edit>
  ),
  create: () => (
    <Create redirect="list">
      <ProductForm creating />
    </Create>
  ),
};
