import { useEffect, useState } from "react";
import { trainingApi } from "./training.api.ts";

let asked: Promise<boolean> | null = null;

/** Whether this server trains character models (a trainer is configured), asked once a page load. */
function trainingAvailable(): Promise<boolean> {
  asked ??= trainingApi.status().then(
    (s) => s.available,
    () => {
      asked = null;
      return false;
    },
  );
  return asked;
}

/**
 * Whether the server trains (undefined while it is asked): "Train my model" and "Train one" are offered only where
 * training can run (issue 46 item 10), never as a way to "Training is not available on this server yet".
 */
export function useTrainingAvailable(): boolean | undefined {
  const [available, setAvailable] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void trainingAvailable().then((a) => live && setAvailable(a));
    return () => {
      live = false;
    };
  }, []);
  return available;
}
