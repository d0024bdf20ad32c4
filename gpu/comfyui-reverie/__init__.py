"""
Reverie's ComfyUI nodes (docs/decisions/330): LoRA loaders that take a person's character model by its SHA-256 and a
short-lived signed Reverie link instead of a file name, so no operator copies files and ComfyUI never meets a LoRA
name it does not list. The file comes from the server's own cache (lora_cache.py), fetched and checked on first use.
Routes: POST /reverie/loras/evict {"sha256": [...]} deletes files now (erasure); GET /reverie/loras lists the cache;
POST /reverie/inputs/delete {"prompt_ids": [...]} deletes the input files Reverie uploaded for ended prompts, and
POST /reverie/outputs/delete {"prompt_ids": [...]} the files ComfyUI saved for them under Reverie's prefix (prompt_files.py).
Like ComfyUI's own routes they rely on the server being reachable only from Reverie (README, "GPU servers").
Install: copy or link this folder into ComfyUI's custom_nodes/ (README, "GPU servers").
"""

import asyncio
import os
import threading
import weakref

import comfy.sd
import comfy.utils
import folder_paths
from aiohttp import web
from server import PromptServer

from .prompt_files import PROMPT_ID, delete_inputs, delete_outputs
from .lora_cache import SHA256, LoraError, cache_from_env

# outside models/loras: a cached file is no name any workflow can pick from LoraLoader's list
CACHE = cache_from_env(os.path.join(folder_paths.models_dir, "reverie-loras"))
# every loader ComfyUI made: an eviction drops the weights one still holds in memory
LOADERS = weakref.WeakSet()
STRENGTH = ("FLOAT", {"default": 1.0, "min": -100.0, "max": 100.0, "step": 0.01})


class ReverieLoraLoader:
    """LoraLoader's work on the file of `sha256`, fetched from `url` when this server has not cached it."""

    def __init__(self):
        self.loaded = None
        LOADERS.add(self)

    @classmethod
    def INPUT_TYPES(cls):
        return {
            "required": {
                "model": ("MODEL",),
                "clip": ("CLIP",),
                "sha256": ("STRING", {"default": ""}),
                "url": ("STRING", {"default": ""}),
                "strength_model": STRENGTH,
                "strength_clip": STRENGTH,
            }
        }

    RETURN_TYPES = ("MODEL", "CLIP")
    FUNCTION = "load_lora"
    CATEGORY = "loaders/reverie"

    def weights(self, sha256, url):
        # kept in memory like LoraLoader's: a new link (each prompt has one) for the same file reads no disk
        if self.loaded is None or self.loaded[0] != sha256:
            self.loaded = (sha256, comfy.utils.load_torch_file(CACHE.get(sha256, url), safe_load=True))
        return self.loaded[1]

    def load_lora(self, model, clip, sha256, url, strength_model, strength_clip):
        lora = self.weights(sha256, url)
        return comfy.sd.load_lora_for_models(model, clip, lora, strength_model, strength_clip)


class ReverieLoraLoaderModelOnly(ReverieLoraLoader):
    @classmethod
    def INPUT_TYPES(cls):
        return {
            "required": {
                "model": ("MODEL",),
                "sha256": ("STRING", {"default": ""}),
                "url": ("STRING", {"default": ""}),
                "strength_model": STRENGTH,
            }
        }

    RETURN_TYPES = ("MODEL",)
    FUNCTION = "load_lora_model_only"

    def load_lora_model_only(self, model, sha256, url, strength_model):
        return (comfy.sd.load_lora_for_models(model, None, self.weights(sha256, url), strength_model, 0)[0],)


NODE_CLASS_MAPPINGS = {"ReverieLoraLoader": ReverieLoraLoader, "ReverieLoraLoaderModelOnly": ReverieLoraLoaderModelOnly}
NODE_DISPLAY_NAME_MAPPINGS = {"ReverieLoraLoader": "Reverie character LoRA", "ReverieLoraLoaderModelOnly": "Reverie character LoRA (model only)"}

routes = PromptServer.instance.routes


@routes.post("/reverie/loras/evict")
async def evict(request):
    try:
        body = await request.json()
    except ValueError:
        body = None
    shas = body.get("sha256") if isinstance(body, dict) else None
    if not isinstance(shas, list) or not all(isinstance(s, str) and SHA256.match(s) for s in shas):
        return web.json_response({"error": "sha256 must be a list of SHA-256 hex digests"}, status=400)
    removed = await asyncio.get_running_loop().run_in_executor(None, CACHE.evict, shas)
    # a loader still holding the weights in memory lets go of them too
    for loader in list(LOADERS):
        if loader.loaded and loader.loaded[0] in shas:
            loader.loaded = None
    return web.json_response({"removed": removed})


async def prompt_ids_of(request):
    """The body's prompt ids, or None unless it is {"prompt_ids": [UUID, ...]}."""
    try:
        body = await request.json()
    except ValueError:
        return None
    ids = body.get("prompt_ids") if isinstance(body, dict) else None
    return ids if isinstance(ids, list) and all(isinstance(i, str) and PROMPT_ID.match(i) for i in ids) else None


async def delete_files(request, delete, folder):
    ids = await prompt_ids_of(request)
    if ids is None:
        return web.json_response({"error": "prompt_ids must be a list of prompt ids"}, status=400)
    removed = await asyncio.get_running_loop().run_in_executor(None, delete, folder, ids)
    return web.json_response({"removed": removed})


@routes.post("/reverie/inputs/delete")
async def delete_prompt_inputs(request):
    return await delete_files(request, delete_inputs, folder_paths.get_input_directory())


# once Reverie has brought the outputs home, or the prompt ended without them being fetched (decision 393)
@routes.post("/reverie/outputs/delete")
async def delete_prompt_outputs(request):
    return await delete_files(request, delete_outputs, folder_paths.get_output_directory())


@routes.get("/reverie/loras")
async def listing(request):
    entries = await asyncio.get_running_loop().run_in_executor(None, CACHE.entries)
    return web.json_response({"max_bytes": CACHE.max_bytes, "files": [{"sha256": s, "bytes": b, "last_used": t} for s, b, t in entries]})


def _sweeper():
    while True:
        try:
            CACHE.sweep()
        except OSError:
            pass
        threading.Event().wait(600)


threading.Thread(target=_sweeper, name="reverie-lora-sweep", daemon=True).start()
