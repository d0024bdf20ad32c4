import { useState } from "react";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { translateMessage } from "../../i18n/index.ts";
import { failedWithoutAnswer } from "../../lib/api-client.ts";
import { NOT_ENOUGH_CREDITS } from "./generation.api.ts";

/**
 * Submitting a generation: one idempotency key per attempt (a double click or a retried request makes one task),
 * the server's refusal shown translated (or `noAnswerMessage` when there was no answer to show), and the
 * buy-credits dialog when the balance is short.
 */
export function useSubmitTask(onSubmitted: (taskId: number) => void, noAnswerMessage?: string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  async function submit(send: (idempotencyKey: string) => Promise<{ id: number }>): Promise<void> {
    setError(null);
    setBusy(true);
    try {
      const { id } = await send(idempotencyKey);
      setIdempotencyKey(crypto.randomUUID());
      onSubmitted(id);
    } catch (e) {
      const message = (e as Error).message;
      setError(translateMessage(noAnswerMessage && failedWithoutAnswer(e) ? noAnswerMessage : message));
      if (message === NOT_ENOUGH_CREDITS) dialogs.open("buyCredits");
    } finally {
      setBusy(false);
    }
  }

  return { error, showError: (message: string) => setError(translateMessage(message)), busy, submit };
}
