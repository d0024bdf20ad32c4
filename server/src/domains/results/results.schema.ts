import { z } from "zod";

export const deleteResultBody = z.object({ id: z.coerce.number({ error: "id must be a task id" }).int().positive({ error: "id must be a task id" }) });
