import { execFileSync } from "node:child_process";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import pg from "pg";
import { startS3rver } from "../fixtures/s3rver.ts";
import { freePort } from "../net-utils.ts";
import { startApi, until } from "./cluster.ts";
import { Browser } from "./guest.ts";
import { buyCredits, type Ctx, check, getObject, type Journey, listObjects, s3Of, waitForTask } from "./journeys.ts";

/**
 * The README's backup and restore (runbook): the database with pg_dump, then the media store's objects, restored into
 * an empty database and an empty bucket; an instance on the restored pair serves the same balance, result and media.
 */
export const backupJourney: Journey = {
  name: "a backup (pg_dump, then the bucket) restored into an empty database and store serves the same balance, results and media",
  async run(c: Ctx) {
    const b = await new Browser(c.nginx.url).guest();
    await buyCredits(c, b);
    const { id } = await b.ok("POST", "/api/Generation/textPicSubmit", { prompt: "a lighthouse on a cliff at dusk", aspect: "1:1" });
    check((await waitForTask(c, id)).status === "succeeded", "the picture did not render");
    const before = { balance: await b.balance(), details: await b.ok("GET", `/api/Generation/picVideoSubmitDetails?id=${id}`) };
    const imageBytes = Buffer.from(await (await fetch(before.details.image_url)).arrayBuffer());
    check(imageBytes.length > 0, "the result did not download before the backup");

    // 1. the database, consistent at one moment (pg_dump's snapshot), while the instances keep serving
    const dump = path.join(c.layout.dir, "reverie.dump");
    execFileSync(path.join(c.db.bin, "pg_dump"), ["--format=custom", "--file", dump, c.db.url]);
    // 2. then the objects: every key the dump names was written before it, so it is in the copy (objects newer than the
    //    dump are extra, harmless); `aws s3 sync` or `rclone sync` in the runbook, the same listing and copy here
    const restoredStore = await startS3rver();
    try {
      const target = s3Of(restoredStore);
      for (const key of await listObjects(c.store, "")) {
        await target.send(new PutObjectCommand({ Bucket: restoredStore.bucket, Key: key, Body: await getObject(c.store, key) }));
      }
      // 3. restore into an empty database
      const admin = new pg.Client({ connectionString: c.db.adminUrl });
      await admin.connect();
      await admin.query("CREATE DATABASE restored");
      await admin.end();
      const restoredUrl = c.db.url.replace(/\/reverie$/, "/restored");
      execFileSync(path.join(c.db.bin, "pg_restore"), ["--no-owner", "--exit-on-error", "--dbname", restoredUrl, dump]);

      const api = startApi(c.layout, "restored", await freePort(), { DATABASE_URL: restoredUrl, ...restoredStore.env });
      try {
        await until(
          "the restored instance ready",
          async () =>
            (await fetch(`${api.url}/api/ready`).then(
              (r) => r.status,
              () => 0,
            )) === 200,
          // as long as the layout's own start may take: on a loaded machine an instance took over a minute
          300_000,
        );
        const applied = api.lines().find((l) => l.msg === "migrations applied")?.applied as string[] | undefined;
        check(!applied?.length, `the restored database needed migrations: ${applied}`);
        const same = new Browser(api.url, b.ip);
        same.token = b.token;
        check((await same.balance()) === before.balance, `balance ${await same.balance()} after the restore, ${before.balance} before`);
        const details = await same.ok("GET", `/api/Generation/picVideoSubmitDetails?id=${id}`);
        check(details.status === before.details.status && details.id === before.details.id, `the result after the restore: ${JSON.stringify(details)}`);
        const url = new URL(details.image_url as string);
        check(url.origin === restoredStore.url, `the restored instance signs ${url.origin}, not its own store`);
        const restoredBytes = Buffer.from(await (await fetch(url)).arrayBuffer());
        check(restoredBytes.equals(imageBytes), "the restored result's bytes differ");
      } finally {
        api.child.kill("SIGTERM");
        await api.exited;
      }
    } finally {
      await restoredStore.close();
    }
  },
};
