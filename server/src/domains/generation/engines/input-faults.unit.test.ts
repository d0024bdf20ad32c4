import { describe, expect, it } from "vitest";
import { inputAtFault } from "./input-faults.ts";
import { loadWorkflows } from "./workflows.ts";

/** Whose fault a failed node is (issue 44 item 3): the person's character model, or the GPU server's own trouble. */
const sdxl = loadWorkflows().find((w) => w.name === "sdxl-t2i");
if (!sdxl) throw new Error("no sdxl-t2i");
const loader = sdxl.binding.lora[0].node;

describe("a LoRA loader's failure", () => {
  it("is the person's when Reverie refused the file or it was not the file named", () => {
    expect(inputAtFault(sdxl, [{ node: loader, message: "LoraError: the character model could not be fetched: HTTP 404" }])).toBe("lora");
    expect(inputAtFault(sdxl, [{ node: loader, message: "LoraError: the character model fetched is not the file named (SHA-256 mismatch)" }])).toBe("lora");
    expect(inputAtFault(sdxl, [{ node: loader, input: "lora_name" }])).toBe("lora");
  });

  it("is the server's when it could not reach Reverie, or Reverie failed serving it: another server may load it", () => {
    expect(inputAtFault(sdxl, [{ node: loader, message: "LoraError: the character model could not be fetched: [Errno 111] Connection refused" }])).toBe(
      undefined,
    );
    expect(inputAtFault(sdxl, [{ node: loader, message: "LoraError: the character model could not be fetched: HTTP 503" }])).toBeUndefined();
  });
});
