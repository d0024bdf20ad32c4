"""Posts a prompt Reverie made (dumped from the fake ComfyUI: prompt.json, in-<name> files) to a real ComfyUI, after
uploading its input files under the same names. STEPS overrides every KSampler's steps. Prints per-node seconds."""
import asyncio, json, os, sys, time, urllib.request, uuid
import aiohttp
B = os.environ.get("COMFY", "http://127.0.0.1:8188")
d = sys.argv[1]
g = json.load(open(f"{d}/prompt.json"))
for name in json.load(open(f"{d}/uploads.json")):
    data = open(f"{d}/in-{name}", "rb").read(); bd = "----x" + uuid.uuid4().hex
    body = (f"--{bd}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{bd}\r\nContent-Disposition: form-data; name=\"overwrite\"\r\n\r\ntrue\r\n--{bd}--\r\n".encode()
    print("upload", name, json.load(urllib.request.urlopen(urllib.request.Request(B + "/upload/image", data=body, headers={"Content-Type": f"multipart/form-data; boundary={bd}"}))), flush=True)
if os.environ.get("STEPS"):
    for n in g.values():
        if n["class_type"] == "KSampler": n["inputs"]["steps"] = int(os.environ["STEPS"])
        if n["class_type"] == "KSamplerAdvanced":
            old, new = n["inputs"]["steps"], int(os.environ["STEPS"]); n["inputs"]["steps"] = new
            for k in ("start_at_step", "end_at_step"):
                if n["inputs"][k] < old: n["inputs"][k] = round(n["inputs"][k] * new / old)
async def go():
    cid = str(uuid.uuid4()); pid = str(uuid.uuid4()); t0 = time.time(); last = None; times = {}
    async with aiohttp.ClientSession() as s:
        async with s.ws_connect(f"{B}/ws?clientId={cid}") as ws:
            async with s.post(f"{B}/prompt", json={"prompt": g, "client_id": cid, "prompt_id": pid}) as r:
                txt = await r.text(); print("POST /prompt", r.status, txt[:3000], flush=True)
                if r.status != 200: return
            async for m in ws:
                if m.type != aiohttp.WSMsgType.TEXT: continue
                e = json.loads(m.data); now = time.time() - t0
                if e["type"] == "executing":
                    if last: times[f"{last[0]} {g[last[0]]['class_type']}"] = round(now - last[1], 2)
                    last = (e["data"]["node"], now) if e["data"]["node"] else None
                    if e["data"].get("node") is None and e["data"].get("prompt_id") == pid: break
                if e["type"] == "execution_error": print("ERROR", json.dumps(e["data"])[:3000], flush=True); break
    h = json.load(urllib.request.urlopen(f"{B}/history/{pid}")).get(pid, {})
    print(json.dumps({"total_s": round(time.time() - t0, 2), "status": h.get("status", {}).get("status_str"), "nodes_s": times, "outputs": h.get("outputs")}), flush=True)
asyncio.run(go())
