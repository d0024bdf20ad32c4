import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.ts";
import { decodeAwsChunked, trailerChecksumMatches } from "./aws-chunked.ts";
import { s3ChecksumMode } from "./storage.ts";

// as s3rver kept the AWS SDK's upload of "hello file" (issue 51)
const FRAMED = Buffer.from("a\r\nhello file\r\n0\r\nx-amz-checksum-crc32:aaQA+w==\r\n\r\n", "latin1");

describe("aws-chunked framing", () => {
  it("reads the SDK's trailing-checksum framing back into its bytes, and checks the CRC32", () => {
    const framed = decodeAwsChunked(FRAMED)!;
    expect(framed.data.toString()).toBe("hello file");
    expect(framed.trailers).toEqual({ "x-amz-checksum-crc32": "aaQA+w==" });
    expect(trailerChecksumMatches(framed)).toBe(true);
    expect(trailerChecksumMatches({ ...framed, data: Buffer.from("hello filE") })).toBe(false);
  });

  it("reads signed chunks of several sizes, and the SHA-256 and CRC32C trailers", () => {
    const sig = `;chunk-signature=${"ab".repeat(32)}`;
    const a = crypto.randomBytes(70_000);
    const b = crypto.randomBytes(5);
    const data = Buffer.concat([a, b]);
    const body = (trailer: string) =>
      Buffer.concat([Buffer.from(`${a.length.toString(16)}${sig}\r\n`), a, Buffer.from(`\r\n5${sig}\r\n`), b, Buffer.from(`\r\n0${sig}\r\n${trailer}\r\n`)]);
    expect(decodeAwsChunked(body(""))).toEqual({ data, trailers: {} });
    expect(trailerChecksumMatches(decodeAwsChunked(body(""))!)).toBeNull();
    const sha = crypto.createHash("sha256").update(data).digest("base64");
    expect(trailerChecksumMatches(decodeAwsChunked(body(`x-amz-checksum-sha256:${sha}\r\n`))!)).toBe(true);
    // CRC32C("123456789") = 0xE3069283, the check value of the Castagnoli polynomial
    const crc32c = { data: Buffer.from("123456789"), trailers: { "x-amz-checksum-crc32c": Buffer.from("e3069283", "hex").toString("base64") } };
    expect(trailerChecksumMatches(crc32c)).toBe(true);
  });

  it("takes nothing else for framing: real files, a truncated body, bytes after the trailer", () => {
    expect(decodeAwsChunked(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x0d, 0x0a]))).toBeNull();
    expect(decodeAwsChunked(Buffer.from("abc\r\nnot framed at all\r\n"))).toBeNull();
    expect(decodeAwsChunked(FRAMED.subarray(0, FRAMED.length - 2))).toBeNull();
    expect(decodeAwsChunked(Buffer.concat([FRAMED, Buffer.from("x")]))).toBeNull();
    expect(decodeAwsChunked(Buffer.from("5\r\nhello file\r\n0\r\n\r\n"))).toBeNull();
  });
});

const testConfig = (env: Record<string, string>) => parseConfig({ NODE_ENV: "test", ...env });

describe("S3_CHECKSUMS", () => {
  it("defaults to when_required for an S3-compatible endpoint and to the SDK's when_supported on AWS; set, it wins", () => {
    expect(s3ChecksumMode(testConfig({ STORAGE: "s3", S3_ENDPOINT: "http://127.0.0.1:9000" }))).toBe("when_required");
    expect(s3ChecksumMode(testConfig({ STORAGE: "s3" }))).toBe("when_supported");
    expect(s3ChecksumMode(testConfig({ STORAGE: "s3", S3_ENDPOINT: "http://127.0.0.1:9000", S3_CHECKSUMS: "when_supported" }))).toBe("when_supported");
    expect(() => testConfig({ S3_CHECKSUMS: "always" })).toThrow(/S3_CHECKSUMS/);
  });
});
