#!/usr/bin/env python3
"""Runs a prompt through Reverie's ReverieLoraLoader on a real ComfyUI without a GPU: the LoRA is served from a local
link, fetched and hash-checked by the node, and applied to a random-weight SD 1.5 UNet and CLIP-L (one sampler step
at 64x64, a few seconds on a CPU); then it reads ComfyUI's log for what it said of the LoRA's keys.

  python run_lora_node_cpu.py build <ComfyUI models dir>
        writes diffusion_models/sd15_random_unet.safetensors (UNETLoader) and text_encoders/sd15_random_clip_l.safetensors
        (CLIPLoader, type stable_diffusion); ComfyUI's Python, randweights.py and make_random_lora.py importable
  python run_lora_node_cpu.py run <ComfyUI URL> <lora.safetensors> <ComfyUI's log file>
        standard library only; fails unless the prompt succeeds and the log has no "lora key not loaded", "NOT LOADED"
        or "ERROR lora" line (`--expect-warnings`: unless it has, for a LoRA of another model)"""
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.request
import uuid

WARNINGS = ("lora key not loaded", "NOT LOADED", "ERROR lora")


def build(models):
    import make_random_lora as mrl
    import randweights as rw
    import torch
    import comfy.sd1_clip

    state, _ = rw.random_state_dict(mrl.KINDS["sd15"].diffusion(), "", torch.float16)
    rw.save(state, os.path.join(models, "diffusion_models", "sd15_random_unet.safetensors"))
    clip = comfy.sd1_clip.SD1ClipModel(device="meta", dtype=torch.float16)
    state, _ = rw.random_state_dict(clip, "", torch.float16, skip=("logit_scale",))
    # the Hugging Face names CLIPLoader detects as CLIP-L (comfy.sd.detect_te_model)
    rw.save({k.replace("clip_l.transformer.", ""): v for k, v in state.items()}, os.path.join(models, "text_encoders", "sd15_random_clip_l.safetensors"))


def serve(body):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/lora?sig=check"


def post(url, body):
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return res.read()


def run(url, lora, log, expect_warnings):
    body = open(lora, "rb").read()
    pid = str(uuid.uuid4())
    graph = {
        "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "sd15_random_unet.safetensors", "weight_dtype": "default"}},
        "2": {"class_type": "CLIPLoader", "inputs": {"clip_name": "sd15_random_clip_l.safetensors", "type": "stable_diffusion"}},
        "3": {"class_type": "ReverieLoraLoader", "inputs": {"model": ["1", 0], "clip": ["2", 0], "sha256": hashlib.sha256(body).hexdigest(),
                                                            "url": serve(body), "strength_model": 1.0, "strength_clip": 1.0}},
        "4": {"class_type": "CLIPTextEncode", "inputs": {"text": "rvalice, a portrait", "clip": ["3", 1]}},
        "5": {"class_type": "CLIPTextEncode", "inputs": {"text": "", "clip": ["3", 1]}},
        "6": {"class_type": "EmptyLatentImage", "inputs": {"width": 64, "height": 64, "batch_size": 1}},
        "7": {"class_type": "KSampler", "inputs": {"model": ["3", 0], "seed": 1, "steps": 1, "cfg": 1.0, "sampler_name": "euler", "scheduler": "normal",
                                                   "positive": ["4", 0], "negative": ["5", 0], "latent_image": ["6", 0], "denoise": 1.0}},
        "8": {"class_type": "SaveLatent", "inputs": {"samples": ["7", 0], "filename_prefix": f"reverie/{pid}"}},
    }
    mark = os.path.getsize(log)
    t0 = time.time()
    post(url + "/prompt", {"prompt": graph, "prompt_id": pid})
    while True:
        with urllib.request.urlopen(f"{url}/history/{pid}", timeout=30) as res:
            entry = json.loads(res.read()).get(pid)
        if entry and entry["status"]["completed"] or entry and entry["status"]["status_str"] == "error":
            break
        time.sleep(0.5)
    post(url + "/history", {"delete": [pid]})
    post(url + "/reverie/outputs/delete", {"prompt_ids": [pid]})
    time.sleep(0.5)  # the log is written by ComfyUI's own thread
    with open(log) as f:
        f.seek(mark)
        said = [line for line in f if any(w in line for w in WARNINGS)]
    print(f"{os.path.basename(lora)}: {entry['status']['status_str']} in {time.time()-t0:.1f}s, {len(said)} LoRA warnings", said[:2], flush=True)
    assert entry["status"]["status_str"] == "success", entry["status"]
    assert bool(said) == expect_warnings, said[:5]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "build":
        build(sys.argv[2])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "run":
        run(sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4], sys.argv[5:] == ["--expect-warnings"])
    else:
        raise SystemExit(__doc__)
