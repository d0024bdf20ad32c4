#!/usr/bin/env python3
"""Checks Reverie's node deletes a prompt's files on a real ComfyUI (decisions 376, 393), as the engine uses it: for two
prompts, a photo is uploaded as `reverie-<prompt id>.png` and LoadImage -> SaveImage and -> CreateVideo -> SaveVideo
run with the prefix `reverie/<prompt id>`, as Reverie's video workflows save a clip and its poster (no model: a CPU
does); then /reverie/inputs/delete and /reverie/outputs/delete for the first
prompt leave /view answering 404 for its files and 200 for the second's, and a name that is not a prompt id is refused.

Usage: python3 check_prompt_files.py [http://127.0.0.1:8188]   (standard library only; ComfyUI started with the node in
custom_nodes/, e.g. `python main.py --cpu --front-end-root ../shared/comfyui-gpu/stub`)"""
import json
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zlib

URL = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8188").rstrip("/")


def png(width, height, rgb):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def request(path, body=None, headers=None):
    req = urllib.request.Request(URL + path, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, res.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def post_json(path, body):
    status, raw = request(path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return status, json.loads(raw or b"null")


def upload(name, data):
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{name}"\r\nContent-Type: image/png\r\n\r\n'.encode() + data,
        f'--{boundary}\r\nContent-Disposition: form-data; name="overwrite"\r\n\r\ntrue'.encode(),
        f"--{boundary}--\r\n".encode(),
    ]
    status, raw = request("/upload/image", b"\r\n".join(parts), {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 200, (status, raw)
    return json.loads(raw)["name"]


def run(prompt_id):
    name = upload(f"reverie-{prompt_id}.png", png(64, 48, (200, 80, 40)))
    graph = {
        "1": {"class_type": "LoadImage", "inputs": {"image": name}},
        "2": {"class_type": "SaveImage", "inputs": {"images": ["1", 0], "filename_prefix": f"reverie/{prompt_id}"}},
        "3": {"class_type": "RepeatImageBatch", "inputs": {"image": ["1", 0], "amount": 8}},
        "4": {"class_type": "CreateVideo", "inputs": {"images": ["3", 0], "fps": 8.0}},
        "5": {"class_type": "SaveVideo", "inputs": {"video": ["4", 0], "filename_prefix": f"reverie/{prompt_id}", "format": "auto", "codec": "auto"}},
    }
    status, answer = post_json("/prompt", {"prompt": graph, "prompt_id": prompt_id, "client_id": "reverie-check"})
    assert status == 200, answer
    for _ in range(300):
        entry = json.loads(request(f"/history/{prompt_id}")[1]).get(prompt_id)
        if entry and entry["status"]["completed"]:
            assert entry["status"]["status_str"] == "success", entry["status"]
            return name, [img for node in ("2", "5") for img in entry["outputs"][node]["images"]]
        time.sleep(0.1)
    raise SystemExit(f"prompt {prompt_id} did not finish")


def view(filename, subfolder, kind):
    return request("/view?" + urllib.parse.urlencode({"filename": filename, "subfolder": subfolder, "type": kind}))[0]


if __name__ == "__main__":
    mine, theirs = str(uuid.uuid4()), str(uuid.uuid4())
    (my_input, my_outputs), (their_input, their_outputs) = run(mine), run(theirs)
    print("saved:", my_outputs, their_outputs, flush=True)
    assert len(my_outputs) == 2 and all(o["subfolder"] == "reverie" and o["filename"].startswith(mine + "_") for o in my_outputs), my_outputs
    assert all(view(o["filename"], o["subfolder"], "output") == 200 for o in my_outputs + their_outputs)
    assert post_json("/reverie/inputs/delete", {"prompt_ids": [mine]}) == (200, {"removed": [my_input]})
    removed = post_json("/reverie/outputs/delete", {"prompt_ids": [mine]})
    assert removed == (200, {"removed": sorted(o["filename"] for o in my_outputs)}), removed
    assert view(my_input, "", "input") == 404 and all(view(o["filename"], o["subfolder"], "output") == 404 for o in my_outputs)
    assert view(their_input, "", "input") == 200 and all(view(o["filename"], o["subfolder"], "output") == 200 for o in their_outputs)
    for bad in [{"prompt_ids": ["../" + theirs]}, {"prompt_ids": [theirs + "/.."]}, {"prompt_ids": theirs}, {}]:
        assert post_json("/reverie/outputs/delete", bad)[0] == 400, bad
    assert post_json("/reverie/outputs/delete", {"prompt_ids": [theirs]})[0] == 200
    assert post_json("/reverie/inputs/delete", {"prompt_ids": [theirs]})[0] == 200
    for pid in (mine, theirs):
        post_json("/history", {"delete": [pid]})
    print("the node deleted the named prompt's input and outputs, and nothing else", flush=True)
