import type { Tx } from "../../db/client.ts";

/**
 * Account erasure (GDPR Art. 17, decision 262), the training domain's part, in the erasure's transaction: the account's
 * character models go with their likeness-consent records (selfies included) and the rows saying which GPU servers held
 * their weights; their links die with the rows. The servers were asked to delete their copies before the transaction
 * (evictModelsOf): no network call holds the erasure's locks.
 * Answers the files to delete once the transaction commits: weights, datasets and selfie frames. The training photos
 * are uploads, erased by their owner.
 */
export async function eraseTraining(tx: Tx, userId: number): Promise<string[]> {
  const models = await tx.characterModel.findMany({
    where: { userId },
    select: { artifactKey: true, datasetKey: true, consent: { select: { selfieKeys: true } } },
  });
  // the account's row stays (anonymised), so nothing cascades: where its weights went goes with it here
  await tx.gpuLoraCopy.deleteMany({ where: { userId } });
  await tx.trainingConsent.deleteMany({ where: { userId } });
  await tx.characterModel.deleteMany({ where: { userId } });
  return models.flatMap((m) => [m.artifactKey, m.datasetKey, ...(m.consent?.selfieKeys ?? [])].filter((k): k is string => !!k));
}
