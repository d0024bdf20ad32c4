import type { Db, Tx } from "../../db/client.ts";

/**
 * Account erasure (GDPR Art. 17, decision 262), the training domain's part, in the erasure's transaction: the account's
 * character models go with their likeness-consent records (selfies included), and every GPU server is asked to delete
 * its copies of their weights (decision 330) before the rows that say where they went. Their links die with the rows.
 * Answers the files to delete once the transaction commits: weights, datasets and selfie frames. The training photos
 * are uploads, erased by their owner.
 */
export const eraseTrainingOf = (evictFromGpus: (sha256s: (string | null)[], tx: Db | Tx) => Promise<void>) =>
  async function eraseTraining(tx: Tx, userId: number): Promise<string[]> {
    const models = await tx.characterModel.findMany({
      where: { userId },
      select: { artifactKey: true, datasetKey: true, weightsSha256: true, consent: { select: { selfieKeys: true } } },
    });
    // evicting early is harmless should the erasure roll back: a server fetches a live model again on its next use
    await evictFromGpus(
      models.map((m) => m.weightsSha256),
      tx,
    );
    // the account's row stays (anonymised), so nothing cascades: where its weights went goes with it here
    await tx.gpuLoraCopy.deleteMany({ where: { userId } });
    await tx.trainingConsent.deleteMany({ where: { userId } });
    await tx.characterModel.deleteMany({ where: { userId } });
    return models.flatMap((m) => [m.artifactKey, m.datasetKey, ...(m.consent?.selfieKeys ?? [])].filter((k): k is string => !!k));
  };
