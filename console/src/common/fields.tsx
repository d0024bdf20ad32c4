import { Chip } from "@mui/material";
import { FunctionField, useLocaleState, useRecordContext, useTranslate, type FunctionFieldProps } from "react-admin";

/** JSON columns (engine parameters, task inputs, audit before/after), pretty-printed. */
export function JsonField({ source, label }: { source: string; label?: string }) {
  return (
    <FunctionField
      source={source}
      label={label}
      render={(r: Record<string, unknown>) => (
        <pre style={{ margin: 0, fontSize: 12, whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: 640 }}>
          {r[source] == null ? "" : JSON.stringify(r[source], null, 2)}
        </pre>
      )}
    />
  );
}

/** A pixel switch: 1 on, 0 off. */
export function FlagField({ source, label }: { source: string; label?: string }) {
  return (
    <FunctionField
      source={source}
      label={label}
      sortable={false}
      render={(r: Record<string, unknown>) => (
        <Chip size="small" label={r[source] === 1 ? "1" : "0"} color={r[source] === 1 ? "success" : "default"} data-flag={source} />
      )}
    />
  );
}

/** How long something has waited, from seconds. */
export function AgeField(props: Omit<FunctionFieldProps, "render">) {
  const translate = useTranslate();
  return (
    <FunctionField
      {...props}
      render={(r: { ageSeconds: number }) => {
        const s = r.ageSeconds;
        if (s < 3600) return translate("console.age.minutes", { n: Math.floor(s / 60) });
        if (s < 86_400) return translate("console.age.hours", { n: Math.floor(s / 3600) });
        return translate("console.age.days", { n: Math.floor(s / 86_400) });
      }}
    />
  );
}

/** Minor currency units shown as an amount. */
export function MoneyField({ source, label }: { source: string; label?: string }) {
  return (
    <FunctionField
      source={source}
      label={label}
      render={(r: Record<string, number | string>) => `${(Number(r[source]) / 100).toFixed(2)} ${r.currency ?? ""}`}
    />
  );
}

/** A name staff wrote in English and other languages: the console's language where it has one, else the English. */
export function useLocalName() {
  const [locale] = useLocaleState();
  return (name: string, names?: Record<string, string> | null) => names?.[locale] || name;
}

/** The template a row is kept by (task, render, GPU cost), by its name, never its bare id; "—" for none. */
export function TemplateNameField(_: { source: "templateName"; label?: string }) {
  const named = useLocalName();
  const r = useRecordContext<{ templateName: string | null; templateNames?: Record<string, string> }>();
  return <span>{r?.templateName ? named(r.templateName, r.templateNames) : "—"}</span>;
}
