import { TextInput } from "react-admin";
import { TRANSLATED_LANGUAGES } from "../../../server/src/contract/locales.ts";

/** One input per language the consumer app shows a staff-written text in (`<source>.ja`, ...); empty = English is shown. */
export function TranslationInputs({ source, multiline = false }: { source: string; multiline?: boolean }) {
  return (
    <>
      {TRANSLATED_LANGUAGES.map((lng) => (
        <TextInput key={lng} source={`${source}.${lng}`} multiline={multiline} fullWidth={multiline} />
      ))}
    </>
  );
}
