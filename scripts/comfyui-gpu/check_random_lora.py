#!/usr/bin/env python3
"""Checks, without a GPU, that ComfyUI 0.3.64 loads each LoRA make_random_lora.py writes as LoraLoader does, with no key
left over: for each kind and format, the target model is built on `meta`, a LoRA of rank 2 is made (real random values on
the CPU), and comfy.sd.load_lora_for_models — the function LoraLoader, LoraLoaderModelOnly and Reverie's node call —
applies it to a ModelPatcher of the model (and of its text encoder). Then every patch is computed against a meta weight
of the layer's shape (comfy.lora.calculate_weight), as ComfyUI does when it samples. Any warning or error ComfyUI
logs fails the check: "lora key not loaded" (a key the model's key map lacks), "NOT LOADED" (a key the model lacks),
"ERROR" (a shape that does not fit). A planted foreign key proves the capture hears them.

Usage (ComfyUI's Python, COMFY_ROOT as for run.sh; randweights.py beside this file or on PYTHONPATH):
  python check_random_lora.py [kind ...]           default: every kind of make_random_lora.py
  python check_random_lora.py <kind>=<file> ...    a file written by make_random_lora.py build (or any LoRA for that
                                                   kind), read as LoraLoader reads it (comfy.utils.load_torch_file)
ComfyUI imports torchvision when it loads its model classes; the check never calls it, so on a CPU machine without a
torchvision build an empty stand-in package (torchvision/__init__.py with `from . import transforms`) on PYTHONPATH does."""
import logging
import sys
import time

import make_random_lora as mrl
import torch
import comfy.lora
import comfy.model_patcher
import comfy.sd
import comfy.utils

META = torch.device("meta")


class Heard(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def text_encoder(cond_stage_model):
    """A comfy.sd.CLIP around a text encoder built on meta: what CLIPLoader / the checkpoint loader hand LoraLoader,
    without its tokenizer (a LoRA does not touch it) or a first load onto a device."""
    clip = comfy.sd.CLIP(no_init=True)
    clip.cond_stage_model = cond_stage_model
    clip.patcher = comfy.model_patcher.ModelPatcher(cond_stage_model, load_device=META, offload_device=META)
    clip.tokenizer, clip.layer_idx, clip.tokenizer_options, clip.use_clip_schedule, clip.apply_hooks_to_conds = None, None, {}, False, None
    return clip


def load(model, clip, lora):
    """LoraLoader's work at strength 1, then each patched weight computed; answers the patchers and what ComfyUI logged."""
    heard = Heard()
    logging.getLogger().addHandler(heard)
    try:
        patcher = comfy.model_patcher.ModelPatcher(model, load_device=META, offload_device=META)
        new_model, new_clip = comfy.sd.load_lora_for_models(patcher, text_encoder(clip) if clip is not None else None, lora, 1.0, 1.0)
        for p in [new_model.patches] + ([new_clip.patcher.patches] if new_clip else []):
            weights = (new_model if p is new_model.patches else new_clip.patcher).model.state_dict()
            for key, patches in p.items():
                comfy.lora.calculate_weight(patches, torch.empty(weights[key].shape, device=META), key)
    finally:
        logging.getLogger().removeHandler(heard)
    return new_model, new_clip, heard.lines


def check(kind):
    model, clip = mrl.target(kind)
    for fmt in mrl.KINDS[kind].formats:
        t0 = time.time()
        lora = mrl.lora_state_dict(kind, fmt, 2, torch.float16, model, clip)
        new_model, new_clip, heard = load(model, clip, lora)
        unet = len(new_model.patches)
        te = len(new_clip.patcher.patches) if new_clip else 0
        layers = sum(1 for k in lora if k.endswith(mrl.SUFFIXES[fmt][0]))
        print(f"{kind} {fmt}: {len(lora)} tensors, {layers} layers -> {unet} model + {te} text encoder weights patched, "
              f"{len(heard)} warnings ({time.time()-t0:.1f}s); e.g. {next(iter(lora))}", flush=True)
        assert not heard, f"{kind} {fmt}: ComfyUI said {heard[:3]}"
        # Flux's q, k and v are three slices of one fused weight: fewer weights than layers
        assert unet + te == len(mrl.adapted(model, mrl.KINDS[kind].blocks)) + (len(mrl.adapted(clip, (), clip=True)) if clip is not None else 0)
        assert unet + te == layers or kind == "flux"
    hears_foreign(model)


def check_file(kind, path):
    model, clip = mrl.target(kind)
    lora = comfy.utils.load_torch_file(path, safe_load=True)
    new_model, new_clip, heard = load(model, clip, lora)
    te = len(new_clip.patcher.patches) if new_clip else 0
    print(f"{kind} {path}: {len(lora)} tensors -> {len(new_model.patches)} model + {te} text encoder weights patched, {len(heard)} warnings", flush=True)
    assert not heard, f"{kind} {path}: ComfyUI said {heard[:3]}"
    hears_foreign(model)


def hears_foreign(model):
    """The capture hears a key ComfyUI cannot place."""
    foreign = {"lora_unet_not_a_layer.lora_down.weight": torch.zeros(2, 4), "lora_unet_not_a_layer.lora_up.weight": torch.zeros(4, 2)}
    *_, heard = load(model, None, foreign)
    assert any("lora key not loaded: lora_unet_not_a_layer" in h for h in heard), heard


if __name__ == "__main__":
    for arg in sys.argv[1:] or list(mrl.KINDS):
        if "=" in arg:
            check_file(*arg.split("=", 1))
        else:
            check(arg)
    print("every LoRA loaded with no key left over", flush=True)
