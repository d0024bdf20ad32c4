import type { ConnectedWallet, TonConnectUI } from "@tonconnect/ui";
import i18n from "../../i18n/index.ts";
import type { TonTransfer, WalletProof } from "./wallets.api.ts";

/**
 * TON Connect in the browser (docs/decisions/211). @tonconnect/ui is large, so it is imported only when the buyer
 * chooses the wallet in the buy dialog inside the mini-app: nothing of it is in the first load.
 */
let ui: Promise<TonConnectUI> | null = null;

/** MUI's modals (the buy dialog) stack at z-index 1300: TON Connect's wallet chooser must open above the dialog it came from. */
const ROOT_ID = "reverie-tonconnect-root";
const ROOT_Z_INDEX = 1350;

function widgetRoot(): string {
  if (!document.getElementById(ROOT_ID)) {
    const root = document.createElement("div");
    root.id = ROOT_ID;
    root.style.position = "relative";
    root.style.zIndex = String(ROOT_Z_INDEX);
    document.body.appendChild(root);
  }
  return ROOT_ID;
}

function tonConnect(): Promise<TonConnectUI> {
  ui ??= import("@tonconnect/ui").then(({ TonConnectUI }) => {
    const instance = new TonConnectUI({
      widgetRootId: widgetRoot(),
      // served by the server for its public URL: its host is the domain wallets sign in ton_proof
      manifestUrl: `${window.location.origin}/tonconnect-manifest.json`,
      language: i18n.language === "ru" ? "ru" : "en",
      analytics: { mode: "off" },
    });
    return instance;
  });
  return ui;
}

function proofOf(wallet: ConnectedWallet): WalletProof | null {
  const reply = wallet.connectItems?.tonProof;
  if (!reply || !("proof" in reply)) return null;
  return {
    address: wallet.account.address,
    chain: wallet.account.chain,
    public_key: wallet.account.publicKey,
    wallet_state_init: wallet.account.walletStateInit,
    proof: reply.proof,
  };
}

/**
 * Opens TON Connect's wallet chooser with our single-use payload as the ton_proof request and resolves with the
 * wallet's account and proof once it connected (null if the buyer closed the chooser). A wallet already connected
 * in this browser is disconnected first: only a fresh connection carries a fresh proof.
 */
export async function connectWithProof(payload: string): Promise<WalletProof | null> {
  const tc = await tonConnect();
  await tc.connectionRestored;
  if (tc.connected) await tc.disconnect();
  tc.setConnectRequestParameters({ state: "ready", value: { tonProof: payload } });
  return new Promise<WalletProof | null>((resolve, reject) => {
    const stops: Array<() => void> = [];
    const done = (v: WalletProof | null, err?: unknown) => {
      stops.forEach((s) => s());
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(v);
    };
    stops.push(
      tc.onStatusChange(
        (wallet) => {
          if (wallet) done(proofOf(wallet));
        },
        (err) => done(null, err),
      ),
    );
    stops.push(
      tc.onModalStateChange((state) => {
        if (state.status === "closed" && state.closeReason !== "wallet-selected") done(null);
      }),
    );
    void tc.openModal();
  });
}

/** The raw address of the wallet TON Connect holds in this browser, if any. */
export async function connectedAddress(): Promise<string | null> {
  const tc = await tonConnect();
  await tc.connectionRestored;
  return tc.account?.address ?? null;
}

/** Asks the connected wallet to send the order's transfer; resolves with the BOC it signed. */
export async function sendTransfer(t: TonTransfer): Promise<string> {
  const tc = await tonConnect();
  const result = await tc.sendTransaction({
    validUntil: t.valid_until,
    network: t.network,
    messages: [{ address: t.address, amount: t.amount, payload: t.payload }],
  });
  return result.boc;
}

export async function disconnectWallet(): Promise<void> {
  const tc = await tonConnect();
  await tc.connectionRestored;
  if (tc.connected) await tc.disconnect();
}
