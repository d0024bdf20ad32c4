import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { MESSAGE_BODY_MAX, MESSAGE_PRICE_MAX } from "../../../../server/src/contract/messages.ts";
import { KEEP_CLEAR } from "../support/keep-clear.ts";

/** An item of the creator's own library they may attach. */
export interface Attachable {
  id: number;
  kind: "image" | "video";
}

export interface Outgoing {
  body: string;
  library_item_id?: number;
  price?: number;
}

/**
 * Writing a message. A fan writes text only (docs/decisions/310); a creator may attach an item of their own library
 * and lock it behind a price the fan pays once; the text stays readable to every recipient (decision 374). `send` throws the server's message, shown here in the reader's language.
 */
export function Composer({ items, send, testId = "composer" }: { items: Attachable[] | null; send: (o: Outgoing) => Promise<void>; testId?: string }) {
  const { t } = useTranslation();
  const [body, setBody] = useState("");
  const [item, setItem] = useState<number | "">("");
  const [price, setPrice] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const priced = Number(price || 0);
  const ready = (body.trim() !== "" || item !== "") && Number.isInteger(priced) && priced >= 0 && priced <= MESSAGE_PRICE_MAX;

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      await send({ body: body.trim(), ...(item === "" ? {} : { library_item_id: item, price: priced }) });
      setBody("");
      setItem("");
      setPrice("");
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box data-testid={testId} sx={{ display: "grid", gap: 1 }}>
      {error && <Alert severity="error">{error}</Alert>}
      {items && (
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
          <TextField
            select
            size="small"
            label={t("messages.attach")}
            value={item}
            onChange={(e) => setItem(e.target.value === "" ? "" : Number(e.target.value))}
            sx={{ flex: "1 1 150px" }}
            slotProps={{ htmlInput: { "data-testid": `${testId}-item` } }}
          >
            <MenuItem value="">{t("messages.noAttachment")}</MenuItem>
            {items.map((i) => (
              <MenuItem key={i.id} value={i.id}>
                {t(i.kind === "video" ? "messages.itemVideo" : "messages.itemImage", { id: i.id })}
              </MenuItem>
            ))}
          </TextField>
          {item !== "" && (
            <TextField
              size="small"
              type="number"
              label={t("messages.price")}
              helperText={t("messages.priceHelp")}
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              sx={{ flex: "1 1 120px" }}
              slotProps={{ htmlInput: { min: 0, max: MESSAGE_PRICE_MAX, "data-testid": `${testId}-price` } }}
            />
          )}
          {item !== "" && (
            // a price locks the attachment only; the words are its preview (decision 374)
            <Typography variant="caption" color="text.secondary" sx={{ flexBasis: "100%" }} data-testid={`${testId}-text-visible`}>
              {t("messages.textVisible")}
            </Typography>
          )}
        </Box>
      )}
      <Box sx={{ display: "flex", gap: 1, alignItems: "flex-end" }}>
        <TextField
          multiline
          maxRows={4}
          size="small"
          fullWidth
          placeholder={t("messages.write")}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          slotProps={{ htmlInput: { maxLength: MESSAGE_BODY_MAX, "data-testid": `${testId}-body`, "aria-label": t("messages.write") } }}
        />
        <Button
          variant="contained"
          disabled={!ready || busy}
          onClick={() => void submit()}
          sx={{ flexShrink: 0, whiteSpace: "nowrap" }}
          data-testid={`${testId}-send`}
          {...KEEP_CLEAR}
        >
          {t("messages.send")}
        </Button>
      </Box>
    </Box>
  );
}
