import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import AccountBalanceWalletIcon from "@mui/icons-material/AccountBalanceWallet";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { translateMessage } from "../../i18n/index.ts";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { verification } from "../payments/verification.ts";
import { reportCheckout } from "../pixels/purchase.ts";
import { session } from "../session/session.ts";
import { walletsApi, type WalletOrder, type WalletState } from "./wallets.api.ts";

/** "UQAb…x9Zk": enough of the address to recognise it, short enough for a 360 px phone. */
function short(address: string): string {
  return `${address.slice(0, 4)}…${address.slice(-4)}`;
}

/**
 * The buy dialog's wallet option (JPay, docs/decisions/210): the wallet connected or not (SPEC.md §4), "Connect wallet"
 * through TON Connect with a ton_proof the server checks, then the order's amount in TON and "Send" from the wallet.
 * After the wallet sent it, the server looks the transfer up on chain and the result page polls (SPEC.md §9).
 */
export function WalletPay({ productId, agreed, onTermsMissing }: { productId: number | null; agreed: boolean; onTermsMissing: (missing: boolean) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [wallet, setWallet] = useState<WalletState | null>(null);
  const [order, setOrder] = useState<WalletOrder | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!session.get().token) return setWallet({ connected: false });
    walletsApi.current().then(setWallet, () => setWallet({ connected: false }));
  }, []);

  // a new product is a new order: the quoted amount no longer applies
  useEffect(() => setOrder(null), [productId]);

  async function run(step: () => Promise<void>) {
    setError(null);
    setBusy(true);
    try {
      await step();
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  const connect = () =>
    run(async () => {
      if (!session.get().token) await session.guestLogin();
      const payload = await walletsApi.proofPayload();
      const { connectWithProof } = await import("./ton-connect.ts");
      const proof = await connectWithProof(payload);
      if (proof) setWallet(await walletsApi.connect(proof));
    });

  const disconnect = () =>
    run(async () => {
      const { disconnectWallet } = await import("./ton-connect.ts");
      await disconnectWallet();
      setWallet(await walletsApi.disconnect());
    });

  const quote = () =>
    run(async () => {
      onTermsMissing(!agreed);
      if (!agreed) return;
      if (productId === null) return;
      setOrder(await walletsApi.createOrder(productId));
    });

  const send = () =>
    run(async () => {
      if (!order) return;
      const { connectedAddress, sendTransfer } = await import("./ton-connect.ts");
      // the linked wallet must also be the one TON Connect holds in this browser (a reload keeps it; another device does not)
      if (!(await connectedAddress())) {
        setWallet({ connected: false });
        throw new Error(t("wallet.connectFirst"));
      }
      let boc: string;
      try {
        boc = await sendTransfer(order.transfer);
      } catch {
        throw new Error(t("wallet.notSent"));
      }
      verification.remember(order.order_id, "jpay");
      await reportCheckout(order.order_id);
      // the server looks the transfer up on chain; the result page keeps polling until it is found
      await walletsApi.orderPay(order.order_no, boc).catch(() => null);
      dialogs.close();
      navigate(`/hcpayPayCallback?order_id=${order.order_id}&provider=jpay`);
    });

  const connected = wallet?.connected === true;
  return (
    <Box sx={{ mt: 2 }} data-testid="wallet-pay" data-connected={wallet === null ? "" : String(connected)}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", p: 1.5, borderRadius: 2, border: "1px solid", borderColor: "divider" }}>
        <AccountBalanceWalletIcon sx={{ color: connected ? "success.main" : "text.secondary" }} />
        <Typography variant="body2" sx={{ flex: "1 1 140px", minWidth: 0 }} data-testid="wallet-state">
          {wallet === null ? "…" : connected ? t("wallet.connected", { address: short(wallet.display_address) }) : t("wallet.notConnected")}
        </Typography>
        {connected ? (
          <Button size="small" onClick={() => void disconnect()} disabled={busy} data-testid="wallet-disconnect">
            {t("wallet.disconnect")}
          </Button>
        ) : (
          <Button size="small" variant="outlined" onClick={() => void connect()} disabled={busy || wallet === null} data-testid="wallet-connect">
            {t("wallet.connect")}
          </Button>
        )}
      </Box>
      {order && (
        <Box sx={{ mt: 1.5 }} data-testid="wallet-quote">
          <Typography sx={{ fontWeight: 700 }}>{t("wallet.amount", { amount: order.transfer.amount_ton })}</Typography>
          <Typography variant="caption" color="text.secondary">
            {t("wallet.sendHint")}
          </Typography>
        </Box>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="wallet-error">
          {error}
        </Alert>
      )}
      <Button
        fullWidth
        size="large"
        variant="contained"
        sx={{ mt: 2, mb: 1 }}
        disabled={busy || productId === null || !connected}
        onClick={() => void (order ? send() : quote())}
        data-testid="pay"
      >
        {busy ? <CircularProgress size={22} color="inherit" /> : order ? t("wallet.send", { amount: order.transfer.amount_ton }) : t("buy.pay")}
      </Button>
    </Box>
  );
}
