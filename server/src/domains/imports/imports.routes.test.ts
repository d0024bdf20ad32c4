import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { OLD_EXCEL, sheetBomb, sheetRows, spreadsheet as sheet } from "../../../../tests/fixtures/spreadsheets.ts";

let t: TestApp;
let support: StaffLogin;
let marketer: StaffLogin;
beforeAll(async () => {
  t = await createTestApp();
  [support, marketer] = await Promise.all([staffMember(t, ["support"]), staffMember(t, ["marketer"])]);
  await t.db.channel.create({ data: { code: "promo", name: "Promo" } });
});
afterAll(() => t.close());

const preview = (list: string, who: StaffLogin, file: Buffer, name = "list.xlsx") =>
  t.http.post(`/admin/api/imports/${list}/preview`).set("token", who.token).attach("file", file, name);
const apply = (list: string, who: StaffLogin, file: Buffer, digest: string) =>
  t.http.post(`/admin/api/imports/${list}/apply`).set("token", who.token).field("digest", digest).attach("file", file, "list.xlsx");

describe("credit grants from a spreadsheet", () => {
  it("previews every row with its errors and writes nothing; apply refuses until they are fixed", async () => {
    const { userId } = await visitor(t);
    const file = sheet([
      ["user_id", "credits", "reason"],
      [userId, 50, "Outage apology"],
      [userId, -3, "Negative"],
      [999_999, 10, "Nobody"],
      [userId, 10, null],
    ]);
    const res = await preview("credit-grants", support, file).expect(200);
    expect(res.body).toMatchObject({ list: "credit-grants", valid: 1, invalid: 3 });
    expect(res.body.rows.map((r: { row: number; errors: string[] }) => [r.row, r.errors.length > 0])).toEqual([
      [2, false],
      [3, true],
      [4, true],
      [5, true],
    ]);
    expect(res.body.rows[1].errors[0]).toMatch(/credits/);
    expect(res.body.rows[2].errors).toEqual(["No account has this user id"]);
    expect(res.body.rows[3].errors[0]).toMatch(/Please enter the reason/);
    await apply("credit-grants", support, file, res.body.digest).expect(400);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points).toBe(0);
  });

  it("applies exactly the previewed rows once, even when the same import is applied many times at once", async () => {
    const [a, b] = await Promise.all([visitor(t), visitor(t)]);
    const file = sheet([
      ["User_ID", "credits", "reason"],
      [a.userId, 40, "Launch gift"],
      [b.userId, 7, "Support case 12"],
      [a.userId, 3, "Second gift"],
    ]);
    const { digest } = (await preview("credit-grants", support, file).expect(200)).body;
    const results = await Promise.all(Array.from({ length: 6 }, () => apply("credit-grants", support, file, digest)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(results.reduce((n, r) => n + r.body.applied, 0)).toBe(3);
    // the two guests were made at once, so their ids say nothing of their order: read each by its own id
    const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
    expect([await balance(a.userId), await balance(b.userId)]).toEqual([43, 7]);
    const entries = await t.db.ledgerEntry.findMany({ where: { userId: a.userId }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.delta, e.note, e.staffId])).toEqual([
      [40, "Launch gift", support.staffId],
      [3, "Second gift", support.staffId],
    ]);
    expect(await t.db.auditLog.count({ where: { action: "adjust_credits", resourceId: String(a.userId) } })).toBe(2);
    expect(await t.db.auditLog.count({ where: { action: "import", resourceId: "credit-grants", staffId: support.staffId } })).toBeGreaterThan(0);
  });

  it("refuses a file other than the previewed one, another role, and anything that is not a spreadsheet", async () => {
    const { userId } = await visitor(t);
    const file = sheet([
      ["user_id", "credits", "reason"],
      [userId, 5, "Gift"],
    ]);
    const { digest } = (await preview("credit-grants", support, file).expect(200)).body;
    const other = sheet([
      ["user_id", "credits", "reason"],
      [userId, 500, "Gift"],
    ]);
    expect((await apply("credit-grants", support, other, digest).expect(409)).body).toMatchObject({
      msg: "This is not the file you previewed: preview it again",
      data: { refusal: "changed" },
    });
    await preview("credit-grants", marketer, file).expect(403);
    await apply("credit-grants", marketer, file, digest).expect(403);
    const text = Buffer.from("user_id,credits,reason\n1,5,Gift\n");
    expect((await preview("credit-grants", support, text, "list.xlsx").expect(400)).body.msg).toBe("Please upload an Excel spreadsheet (.xlsx)");
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    expect((await preview("credit-grants", support, zip).expect(400)).body.msg).toBe("The spreadsheet could not be read; please save it again as .xlsx");
    expect((await preview("credit-grants", support, Buffer.alloc(1024 * 1024 + 1, 1)).expect(400)).body).toMatchObject({
      msg: "The spreadsheet cannot exceed 1 MB",
      data: { refusal: "tooBig", mb: 1 },
    });
    await t.http.post("/admin/api/imports/credit-grants/preview").set("token", support.token).expect(400);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points).toBe(0);
  });
});

describe("pixel ids from a spreadsheet", () => {
  it("adds the ids to the named channels once even when applied many times at once, audited, and gives its template", async () => {
    const file = sheet([
      ["channel", "kind", "event", "value"],
      ["promo", 1, null, "FB-9"],
      ["promo", 3, "order", "AW-9/order"],
    ]);
    const res = await preview("pixel-ids", marketer, file, "ids.xlsx").expect(200);
    expect(res.body).toMatchObject({ valid: 2, invalid: 0 });
    const runs = await Promise.all(Array.from({ length: 4 }, () => apply("pixel-ids", marketer, file, res.body.digest)));
    expect(runs.map((r) => r.status)).toEqual(Array(4).fill(200));
    expect(runs.reduce((n, r) => n + r.body.applied, 0)).toBe(2);
    expect((await apply("pixel-ids", marketer, file, res.body.digest).expect(200)).body).toEqual({ list: "pixel-ids", applied: 0, unchanged: 2 });
    const promo = await t.db.channel.findUniqueOrThrow({ where: { code: "promo" } });
    expect(await t.db.pixelId.count({ where: { channelId: promo.id } })).toBe(2);
    expect(await t.db.auditLog.count({ where: { resource: "PixelId", action: "create", staffId: marketer.staffId } })).toBe(2);
    await preview("pixel-ids", support, file).expect(403);

    const template = await t.http
      .get("/admin/api/imports/pixel-ids/template")
      .set("token", marketer.token)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(sheetRows(template.body as Buffer)[0]).toEqual(["channel", "kind", "event", "value"]);
  });

  it("names the missing columns", async () => {
    const file = sheet([
      ["channel", "value"],
      ["promo", "x"],
    ]);
    expect((await preview("pixel-ids", marketer, file).expect(400)).body).toMatchObject({
      msg: "The first row must name the columns: channel, kind, event, value",
      data: { refusal: "missingColumns", columns: "channel, kind, event, value" },
    });
  });

  it("says to save an Excel 97-2003 file as .xlsx", async () => {
    expect((await preview("pixel-ids", marketer, OLD_EXCEL, "ids.xls").expect(400)).body).toMatchObject({
      msg: "Excel 97-2003 files (.xls) cannot be read: save the file as .xlsx and upload it again",
      data: { refusal: "oldExcel" },
    });
  });
});

/** The slowest `/api/health` answer while `work` runs, asked every 20 ms: what anyone else waits for meanwhile. */
async function slowestHealthWhile<T>(work: Promise<T>): Promise<{ result: T; slowest: number; asked: number }> {
  let done = false;
  let slowest = 0;
  let asked = 0;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      await t.http.get("/api/health").expect(200);
      slowest = Math.max(slowest, performance.now() - started);
      asked++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const result = await work.finally(() => {
    done = true;
  });
  await probe;
  return { result, slowest, asked };
}

describe("a spreadsheet that would block the API", () => {
  it("refuses a zip bomb (a small file whose sheet is 150 MB unpacked) at once, and the API answers others meanwhile", async () => {
    for (const lying of [false, true]) {
      const bomb = sheetBomb(150, lying);
      expect(bomb.length).toBeLessThan(460 * 1024);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const started = performance.now();
      const { result, slowest, asked } = await slowestHealthWhile(preview("credit-grants", support, bomb).then((r) => r));
      loop.disable();
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        msg: "The spreadsheet is too large once unpacked (over 16 MB): copy the list alone into a new file",
        data: { refusal: "tooLarge" },
      });
      // the SheetJS reader held this thread ~5 s on this file (and then answered 200); now nothing here waits on it
      // (bounds with room for a loaded 2-core machine)
      expect(performance.now() - started).toBeLessThan(5000);
      expect(asked).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(1000);
      expect(loop.max / 1e6).toBeLessThan(1000);
    }
  });

  it("refuses a sheet with more rows than an import takes, saying how many it may have", async () => {
    const many = [["user_id", "credits", "reason"], ...Array.from({ length: 5000 }, (_, i) => [i + 1, 1, "Gift"])];
    expect((await preview("credit-grants", support, sheet(many)).expect(400)).body).toMatchObject({
      msg: "The spreadsheet can have at most 1000 rows",
      data: { refusal: "tooManyRows", rows: 1000 },
    });
  });

  it("answers busy, not a queue without end, when many spreadsheets are sent at once, and reads them again after", async () => {
    const file = sheet([
      ["user_id", "credits", "reason"],
      [1, 1, "Gift"],
    ]);
    const answers = await Promise.all(Array.from({ length: 14 }, () => preview("credit-grants", support, file)));
    const statuses = answers.map((r) => r.status).sort();
    // two read at once and eight wait; the rest are told to come back
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 503).map((r) => r.body)).toEqual(
      Array(4).fill(expect.objectContaining({ msg: "Other spreadsheets are being read right now: try again in a minute", data: { refusal: "busy" } })),
    );
    await preview("credit-grants", support, file).expect(200);
  });
});
