import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { creatorsApi, type CreatorPageView } from "./creators.api.ts";
import { CreatorRequests } from "./CustomRequests.tsx";
import { Earnings } from "./Earnings.tsx";
import { TipsReceived } from "./TipList.tsx";
import { type IdentityDraft, linksOf, PageAboutFields, PageIdentityFields } from "./PageIdentityFields.tsx";
import { PublishCreations } from "./Publish.tsx";

/** The creator's own edit form: name, cover, the model shown, bio, social links (one per line), and the prices. */
function EditPage({ page, onSaved }: { page: CreatorPageView; onSaved: (p: CreatorPageView) => void }) {
  const { t } = useTranslation();
  const [identity, setIdentity] = useState<IdentityDraft>({ title: page.title, cover_id: page.cover_id, role_id: page.role_id, cover: null });
  const [bio, setBio] = useState(page.bio);
  const [links, setLinks] = useState(page.social_links.join("\n"));
  const [price, setPrice] = useState(page.request_price ? String(page.request_price) : "");
  const [membershipPrice, setMembershipPrice] = useState(page.membership_price ? String(page.membership_price) : "");
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  async function save() {
    setStatus(null);
    try {
      onSaved(
        await creatorsApi.update({
          title: identity.title,
          cover_id: identity.cover_id,
          role_id: identity.role_id,
          bio,
          social_links: linksOf(links),
          request_price: price.trim() ? Number(price) : null,
          membership_price: membershipPrice.trim() ? Number(membershipPrice) : null,
        }),
      );
      setStatus({ ok: true, text: t("creators.saved") });
    } catch (e) {
      setStatus({ ok: false, text: translateMessage((e as Error).message) });
    }
  }
  return (
    <Box component="section" data-testid="creator-edit" sx={{ display: "grid", gap: 1.5, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">
        {t("creators.editTitle")}
      </Typography>
      <PageIdentityFields value={identity} savedCoverId={page.cover_id} onChange={setIdentity} />
      <PageAboutFields bio={bio} links={links} onBio={setBio} onLinks={setLinks} />
      <TextField
        label={t("creators.requestPrice")}
        helperText={t("creators.requestPriceHelp")}
        value={price}
        onChange={(e) => setPrice(e.target.value.replace(/\D/g, ""))}
        slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "creator-request-price" } }}
      />
      <TextField
        label={t("creators.membershipPrice")}
        helperText={t("creators.membershipPriceHelp")}
        value={membershipPrice}
        onChange={(e) => setMembershipPrice(e.target.value.replace(/\D/g, ""))}
        slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "creator-membership-price" } }}
      />
      {status && (
        <Alert severity={status.ok ? "success" : "error"} data-testid="creator-edit-status">
          {status.text}
        </Alert>
      )}
      <Button variant="contained" onClick={() => void save()} data-testid="creator-save" sx={{ justifySelf: "start" }}>
        {t("creators.save")}
      </Button>
    </Box>
  );
}

/** The creator's own panels on their page: edit, requests to answer, earnings and payouts, publishing. */
export default function CreatorTools({ page, onSaved, onChanged }: { page: CreatorPageView; onSaved: (p: CreatorPageView) => void; onChanged: () => void }) {
  return (
    <>
      <EditPage page={page} onSaved={onSaved} />
      <CreatorRequests />
      <Earnings />
      <TipsReceived />
      <PublishCreations page={page} onChanged={onChanged} />
    </>
  );
}
