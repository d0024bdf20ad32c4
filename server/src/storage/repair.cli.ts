import { config } from "../config.ts";
import { createLogger } from "../logger.ts";
import { repairFramedObjects } from "./s3.repair.ts";
import { s3StorageOf } from "./storage.ts";

/** `npm run storage:repair [-- --dry-run]`: rewrites the objects an S3-compatible store kept aws-chunked (issue 51). */
const cfg = config();
const log = createLogger(cfg);
if (cfg.STORAGE === "s3") {
  const dryRun = process.argv.includes("--dry-run");
  const report = await repairFramedObjects(s3StorageOf(cfg), log, { dryRun });
  log.info({ scanned: report.scanned, repaired: report.repaired.length, failed: report.failed.length, dryRun }, "storage repair done");
  process.exitCode = report.failed.length ? 1 : 0;
} else {
  // set, not process.exit(): the log line is written asynchronously and would be lost
  log.error("storage:repair is for STORAGE=s3: local files were never framed");
  process.exitCode = 2;
}
