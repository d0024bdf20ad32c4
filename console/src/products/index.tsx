import {
  ArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  DateTimeInput,
  Edit,
  FunctionField,
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
import { BASE_CURRENCY, CURRENCIES, exponent } from "../../../server/src/contract/currencies.ts";
import { PRODUCT_KINDS } from "../../../server/src/contract/orders.ts";
import { choicesOf } from "../common/choices.ts";
import { TranslationInputs } from "../common/TranslationInputs.tsx";

const field = (name: string) => `resources.products.fields.${name}`;

interface Price {
  currency: string;
  priceMinor: number;
  salePriceMinor: number | null;
}

/** "USD 29.99 (sale 19.99)": one price as the list shows it, in its currency's precision. */
function priceText(p: Price): string {
  const amount = (minor: number) => (minor / 10 ** exponent(p.currency)).toFixed(exponent(p.currency));
  return `${p.currency} ${amount(p.priceMinor)}${p.salePriceMinor === null ? "" : ` (${amount(p.salePriceMinor)})`}`;
}

/**
 * A price per currency in minor units (cents; whole yen and won), USD required (docs/decisions/300); a sale needs a
 * sale price in each currency, a start and an end, and the server refuses one a regular pack beats in any currency.
 */
const ProductForm = ({ creating = false }: { creating?: boolean }) => (
  <SimpleForm>
    <TextInput source="code" validate={required()} disabled={!creating} />
    <TextInput source="name" validate={required()} fullWidth />
    <TranslationInputs source="names" />
    <SelectInput source="kind" choices={choicesOf(PRODUCT_KINDS)} defaultValue="credits" />
    <NumberInput source="credits" min={1} validate={required()} />
    <NumberInput source="bonusCredits" min={0} defaultValue={0} />
    <ArrayInput source="prices" defaultValue={[{ currency: BASE_CURRENCY, priceMinor: null, salePriceMinor: null }]} validate={required()}>
      <SimpleFormIterator inline disableReordering>
        <SelectInput source="currency" choices={choicesOf(CURRENCIES)} validate={required()} label={field("currency")} />
        <NumberInput source="priceMinor" min={1} validate={required()} label={field("priceMinor")} />
        <NumberInput source="salePriceMinor" min={1} label={field("salePriceMinor")} />
      </SimpleFormIterator>
    </ArrayInput>
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
  list: () => (
    <List sort={{ field: "sortOrder", order: "ASC" }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <NumberField source="sortOrder" />
        <TextField source="name" />
        <TextField source="kind" />
        <NumberField source="credits" />
        <FunctionField source="prices" sortable={false} render={(p: { prices: Price[] }) => p.prices.map(priceText).join(" · ")} />
        <DateField source="saleEndsAt" showTime />
        <BooleanField source="saleRunning" />
        <FunctionField source="bestValueIn" sortable={false} render={(p: { bestValueIn: string[] }) => p.bestValueIn.join(", ")} />
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
