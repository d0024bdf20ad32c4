import { Box, Button, Typography } from "@mui/material";
import { BooleanInput, Link, SelectInput, SimpleForm, TextInput, maxLength, required, useRecordContext, useTranslate } from "react-admin";
import { BRAND_SETTING, contrastRatio, HEX_COLOUR, MIN_CONTRAST, PAGE_BACKGROUND } from "../../../server/src/contract/brand.ts";
import { LANGUAGES } from "../../../server/src/contract/locales.ts";
import { ImageUploadButton } from "../common/UploadButton.tsx";

/** Warns and refuses to save a colour the server would refuse: unreadable on the consumer app's page (WCAG AA). */
function readableOnPage(value: unknown) {
  if (typeof value !== "string" || !HEX_COLOUR.test(value)) return "ra.validation.required";
  const ratio = contrastRatio(value, PAGE_BACKGROUND);
  return ratio < MIN_CONTRAST ? { message: "console.brand.low_contrast", args: { ratio: ratio.toFixed(2) } } : undefined;
}

const languages = LANGUAGES.map((id) => ({ id, name: id }));

/** A swatch of the colour as the app shows it: text in it on the page background. */
function ColourInput({ source, label }: { source: string; label: string }) {
  return <TextInput source={source} label={label} type="color" validate={readableOnPage} sx={{ width: 200 }} />;
}

/** The brand (docs/decisions/289): the consumer app and emails read it at their next start, no rebuild. */
export function BrandForm() {
  const translate = useTranslate();
  const record = useRecordContext<{ value?: { logo?: string | null } }>();
  return (
    <SimpleForm>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate("console.brand.help")}
      </Typography>
      <TextInput source="value.name" label="console.brand.name" validate={[required(), maxLength(40)]} />
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
        <ColourInput source="value.primary" label="console.brand.primary" />
        <ColourInput source="value.secondary" label="console.brand.secondary" />
      </Box>
      <SelectInput source="value.language" label="console.brand.language" choices={languages} validate={required()} />
      <Typography variant="subtitle2">{translate("console.brand.logo")}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-field="brand-logo">
        {record?.value?.logo ?? translate("console.brand.no_logo")}
      </Typography>
      <ImageUploadButton
        path={`site-settings/${BRAND_SETTING}/logo`}
        name="logo"
        label="console.brand.upload_logo"
        saved="console.brand.logo_uploaded"
        action="brand-logo"
      />
      <BooleanInput source="value.watermark" label="console.brand.watermark" helperText="console.brand.watermark_help" sx={{ mt: 2 }} />
    </SimpleForm>
  );
}

/** On the settings list: the brand is always there to edit, saved or not. */
export function BrandButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to={`/site-settings/${BRAND_SETTING}`} size="small" data-action="open-brand">
      {translate("console.brand.open")}
    </Button>
  );
}
