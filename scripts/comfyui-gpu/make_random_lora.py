#!/usr/bin/env python3
"""A random-weight character LoRA of the REAL shapes of the models Reverie applies one to, in the key formats trainers
write, for GPU checks of issue 44 (a person's own character on a real ComfyUI). Beside ../shared/comfyui-gpu's model
builders: randweights.py must be importable (beside this file, or on PYTHONPATH).

The target model is built on the `meta` device with ComfyUI 0.3.64's own classes, through its own detection
(comfy.model_detection reads the meta state dict and builds the model_base ComfyUI's loaders build), and every LoRA key
is taken from ComfyUI's own key map (comfy.lora.model_lora_keys_unet / model_lora_keys_clip, what LoraLoader matches a
file against), so ComfyUI loads the file without a "lora key not loaded" warning (check_random_lora.py proves it on a
CPU). The layers are those trainers adapt by default: every linear (or 1x1 convolution) of each transformer block.

  kind       model (Reverie workflows)                                     formats (first: default)
  sdxl       SDXL base checkpoint + CLIP-L/G (sdxl-t2i, -i2i, -v2v)         kohya: lora_unet_input_blocks_…, lora_te1_/lora_te2_…
  sd15       SD 1.5 checkpoint + CLIP-L                                     kohya: lora_unet_down_blocks_… (diffusers names), lora_te_…
  wan22-5b   Wan 2.2 TI2V 5B (wan22-ti2v-5b-*)                              peft: diffusion_model.blocks.N.<layer>.lora_A/lora_B (diffusion-pipe);
                                                                           kohya: lora_unet_blocks_N_<layer> (musubi-tuner)
  wan22-14b  Wan 2.2 A14B image-to-video, one file for both experts        as wan22-5b
             (wan22-i2v-14b, -fast)
  flux       FLUX.1-dev (flux-t2i): what Reverie's trainers (fal,           peft: transformer.transformer_blocks.N.attn.to_q.lora_A/lora_B
             Replicate) deliver                                             (diffusers, q/k/v are slices of ComfyUI's fused qkv)

kohya files carry lora_down/lora_up and an `alpha` (= rank: scale 1) per layer, peft files lora_A/lora_B. Values
~ N(0, 0.02) (randweights.value_for): the LoRA changes the pictures, which are noise anyway.

Usage (ComfyUI's Python, COMFY_ROOT as for run.sh):
  python make_random_lora.py build <kind> <out.safetensors> [--rank 16] [--format kohya|peft] [--dtype fp16|bf16|fp32]
  python check_random_lora.py [kind ...]      loads each kind and format through LoraLoader's path, on meta (no GPU)
Sizes at rank 16, fp16: see scripts/comfyui-gpu/README.md."""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import randweights as rw  # noqa: E402
import torch  # noqa: E402
import comfy.clip_model  # noqa: E402
import comfy.lora  # noqa: E402
import comfy.model_detection as md  # noqa: E402
import comfy.ops  # noqa: E402
import comfy.sd1_clip  # noqa: E402
import comfy.sdxl_clip  # noqa: E402
from comfy.ldm.flux.layers import DoubleStreamBlock, SingleStreamBlock  # noqa: E402
from comfy.ldm.flux.model import Flux  # noqa: E402
from comfy.ldm.modules.attention import SpatialTransformer  # noqa: E402
from comfy.ldm.modules.diffusionmodules.openaimodel import UNetModel  # noqa: E402
from comfy.ldm.wan.model import WanAttentionBlock, WanModel  # noqa: E402

OPS = comfy.ops.disable_weight_init
# the full UNet configs ComfyUI's model_detection.py names SDXL and SD15 (unet_config_from_diffusers_unet)
UNET = dict(use_checkpoint=False, image_size=32, out_channels=4, use_spatial_transformer=True, legacy=False, in_channels=4,
            model_channels=320, use_temporal_attention=False, use_temporal_resblock=False)
SDXL = dict(UNET, num_classes="sequential", adm_in_channels=2816, num_res_blocks=[2, 2, 2], transformer_depth=[0, 0, 2, 2, 10, 10],
            channel_mult=[1, 2, 4], transformer_depth_middle=10, use_linear_in_transformer=True, context_dim=2048, num_head_channels=64,
            transformer_depth_output=[0, 0, 0, 2, 2, 2, 10, 10, 10])
SD15 = dict(UNET, adm_in_channels=None, num_res_blocks=[2, 2, 2, 2], transformer_depth=[1, 1, 1, 1, 1, 1, 0, 0], channel_mult=[1, 2, 4, 4],
            transformer_depth_middle=1, use_linear_in_transformer=False, context_dim=768, num_heads=8,
            transformer_depth_output=[1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0])
# as ../shared/comfyui-gpu's Wan builders: the 5B TI2V and an A14B image-to-video expert
WAN = dict(patch_size=(1, 2, 2), text_len=512, freq_dim=256, text_dim=4096, window_size=(-1, -1), qk_norm=True, cross_attn_norm=True, eps=1e-6)
WAN22_5B = dict(WAN, model_type="t2v", in_dim=48, dim=3072, ffn_dim=14336, out_dim=48, num_heads=24, num_layers=30)
WAN22_14B = dict(WAN, model_type="t2v", in_dim=36, dim=5120, ffn_dim=13824, out_dim=16, num_heads=40, num_layers=40)
# FLUX.1-dev as model_detection.py reads it (19 double, 38 single blocks, guidance embedding)
FLUX_DEV = dict(image_model="flux", in_channels=16, out_channels=16, vec_in_dim=768, context_in_dim=4096, hidden_size=3072, mlp_ratio=4.0,
                num_heads=24, depth=19, depth_single_blocks=38, axes_dim=[16, 56, 56], theta=10000, patch_size=2, qkv_bias=True, guidance_embed=True)

KOHYA = (".lora_down.weight", ".lora_up.weight", ".alpha")
PEFT = (".lora_A.weight", ".lora_B.weight", None)
SUFFIXES = {"kohya": KOHYA, "peft": PEFT}


class Kind:
    """A model a character LoRA is applied to: how to build it on meta, which blocks trainers adapt, and per format
    the pattern that picks a trainer's name for each layer among the aliases ComfyUI's key map holds."""

    def __init__(self, diffusion, prefix, blocks, formats, clip=None):
        self.diffusion, self.prefix, self.blocks, self.formats, self.clip = diffusion, prefix, blocks, formats, clip


KINDS = {
    "sdxl": Kind(lambda: UNetModel(**SDXL, dtype=torch.float16, device="meta", operations=OPS), "model.diffusion_model.", (SpatialTransformer,),
                 {"kohya": r"^lora_(unet_(input_blocks|middle_block|output_blocks)|te[12]_text_model_encoder_layers)_"},
                 clip=lambda: comfy.sdxl_clip.SDXLClipModel(device="meta", dtype=torch.float16)),
    "sd15": Kind(lambda: UNetModel(**SD15, dtype=torch.float16, device="meta", operations=OPS), "model.diffusion_model.", (SpatialTransformer,),
                 {"kohya": r"^lora_(unet_(down_blocks|mid_block|up_blocks)|te_text_model_encoder_layers)_"},
                 clip=lambda: comfy.sd1_clip.SD1ClipModel(device="meta", dtype=torch.float16)),
    "wan22-5b": Kind(lambda: WanModel(**WAN22_5B, device="meta", dtype=torch.bfloat16, operations=OPS), "", (WanAttentionBlock,),
                     {"peft": r"^diffusion_model\.blocks\.", "kohya": r"^lora_unet_blocks_"}),
    "wan22-14b": Kind(lambda: WanModel(**WAN22_14B, device="meta", dtype=torch.bfloat16, operations=OPS), "", (WanAttentionBlock,),
                      {"peft": r"^diffusion_model\.blocks\.", "kohya": r"^lora_unet_blocks_"}),
    "flux": Kind(lambda: Flux(**FLUX_DEV, device="meta", dtype=torch.bfloat16, operations=OPS), "", (DoubleStreamBlock, SingleStreamBlock),
                 {"peft": r"^transformer\.(single_)?transformer_blocks\."}),
}


def target(kind):
    """The model ComfyUI's loader makes of this kind's weights (its model_base, on meta), and its text encoder or None."""
    k = KINDS[kind]
    sd = {k.prefix + n: t for n, t in k.diffusion().state_dict().items()}
    config = md.model_config_from_unet(sd, k.prefix)
    if config is None:
        raise SystemExit(f"ComfyUI does not recognise the {kind} model built here")
    return config.get_model(sd, k.prefix, device="meta"), (k.clip() if k.clip else None)


def adapted(module, blocks, clip=False):
    """The weights trainers adapt: each linear or convolution inside one of `blocks` (a text encoder's: its layers')."""
    inside = (comfy.clip_model.CLIPLayer,) if clip else blocks
    out = set()
    for name, m in module.named_modules():
        if isinstance(m, inside):
            out.update(f"{name}.{sub}.weight" for sub, layer in m.named_modules() if isinstance(layer, (torch.nn.Linear, torch.nn.Conv2d)))
    return out


def layers(kind, fmt, model, clip):
    """[(LoRA key, shape of the weight it changes)], each key from ComfyUI's own map; fails where a layer has no name
    of the format or two (ComfyUI would then leave it or patch it twice)."""
    k = KINDS[kind]
    key_map = comfy.lora.model_lora_keys_unet(model, {})
    if clip is not None:
        key_map = comfy.lora.model_lora_keys_clip(clip, key_map)
    shapes = {n: tuple(t.shape) for n, t in model.state_dict().items()}
    wanted = adapted(model, k.blocks)
    if clip is not None:
        shapes.update({n: tuple(t.shape) for n, t in clip.state_dict().items()})
        wanted |= adapted(clip, k.blocks, clip=True)
    pattern = re.compile(k.formats[fmt])
    out, covered = [], {}
    for lora_key, to in key_map.items():
        # (weight, offset[, function]) where the name stands for a slice of a fused weight
        weight, offset = (to, None) if isinstance(to, str) else to[:2]
        if weight in wanted and pattern.match(lora_key):
            shape = list(shapes[weight])
            if offset is not None:  # a slice of a fused weight (Flux's q, k, v of one qkv): the LoRA makes that slice
                shape[offset[0]] = offset[2]
            out.append((lora_key, tuple(shape)))
            covered.setdefault(weight, []).append(offset)
    missing = sorted(wanted - set(covered))
    twice = sorted(w for w, offs in covered.items() if len(offs) != len(set(map(str, offs))))
    if missing or twice:
        raise SystemExit(f"{kind} {fmt}: no key for {missing[:3]} ({len(missing)}); two keys for {twice[:3]} ({len(twice)})")
    return sorted(out)


def lora_state_dict(kind, fmt, rank, dtype, model=None, clip=None):
    """The LoRA's tensors, random, on the CPU. `model`/`clip` as `target(kind)` answers (built when not given)."""
    if model is None:
        model, clip = target(kind)
    down, up, alpha = SUFFIXES[fmt]
    out = {}
    for key, shape in layers(kind, fmt, model, clip):
        out_features, in_features, kernel = shape[0], shape[1], shape[2:]
        out[key + down] = rw.value_for(key + down, (rank, in_features, *kernel), dtype)
        out[key + up] = rw.value_for(key + up, (out_features, rank, *(1 for _ in kernel)), dtype)
        if alpha:
            out[key + alpha] = torch.tensor(float(rank), dtype=dtype)
    return out


DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}


def main():
    p = argparse.ArgumentParser(description="Random-weight LoRA of a real model's shapes (see the module's docstring)")
    p.add_argument("command", choices=["build"])
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("out")
    p.add_argument("--rank", type=int, default=16)
    p.add_argument("--format", choices=["kohya", "peft"])
    p.add_argument("--dtype", choices=sorted(DTYPES), default="fp16")
    a = p.parse_args()
    fmt = a.format or next(iter(KINDS[a.kind].formats))
    if fmt not in KINDS[a.kind].formats:
        raise SystemExit(f"{a.kind} LoRAs are written as {' or '.join(KINDS[a.kind].formats)}")
    t0 = time.time()
    rw.GEN.manual_seed(int(os.environ.get("SEED", "1234")))
    state = lora_state_dict(a.kind, fmt, a.rank, DTYPES[a.dtype])
    n = sum(t.numel() for t in state.values())
    print(f"{a.kind} {fmt} rank {a.rank}: {len(state)} tensors, {n/1e6:.1f}M params", flush=True)
    meta = {"note": "random weights, real shapes, for GPU checks only", "ss_network_dim": str(a.rank), "ss_network_alpha": str(a.rank),
            "reverie_lora_kind": a.kind, "reverie_lora_format": fmt}
    rw.save(state, a.out, metadata=meta)
    print(f"done in {time.time()-t0:.0f}s, peak RSS {rw.rss_gb():.1f} GB", flush=True)


if __name__ == "__main__":
    main()
