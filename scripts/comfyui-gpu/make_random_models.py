#!/usr/bin/env python3
"""Random-weight model files of the REAL architectures behind issue 33's GPU workflows, built with ComfyUI 0.3.64's own
classes on the meta device and written tensor by tensor (with ../shared/comfyui-gpu/randweights.py, which must sit
beside this file). They complement the builders in ../shared/comfyui-gpu (LTX-Video, Wan 2.2 5B and A14B i2v, UMT5, the
Wan VAEs); docs/decisions/319 says how they were checked.

  kind        file the workflow loads                                   class (config)
  s2v         diffusion_models/wan2.2_s2v_14B_fp8_scaled.safetensors     WanModel_S2V (5120, 40 layers, in 16), fp8
  wav2vec2    audio_encoders/wav2vec2_large_english_fp16.safetensors     Wav2Vec2Model (1024, 24 layers), fp16
  animate     diffusion_models/wan2.2_animate_14B_bf16.safetensors       AnimateWanModel (5120, 40 layers, in 36), bf16
  clipvision  clip_vision/clip_vision_h.safetensors                      CLIPVisionModelProjection (ViT-H/14), fp16
  camera      diffusion_models/wan2.2_fun_camera_{high,low}_noise_14B_fp8_scaled.safetensors
                                                                          CameraWanModel (camera_2.2, in 36), fp8; SEED per expert

Usage (ComfyUI's Python, COMFY_ROOT as for run.sh, from the ComfyUI folder):
  python make_random_models.py check <kind>        build on meta, print what ComfyUI's detection makes of it (no memory)
  [SEED=n] python make_random_models.py build <kind> <out path>"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import randweights as rw  # noqa: E402
import torch  # noqa: E402
import comfy.clip_model  # noqa: E402
import comfy.ops  # noqa: E402
from comfy.audio_encoders.wav2vec2 import Wav2Vec2Model  # noqa: E402
from comfy.ldm.wan.model import CameraWanModel, WanModel_S2V  # noqa: E402
from comfy.ldm.wan.model_animate import AnimateWanModel  # noqa: E402

OPS = comfy.ops.disable_weight_init
# the 14B backbone every Wan 2.2 expert here shares; in_dim and the extras differ per model
WAN14B = dict(patch_size=(1, 2, 2), text_len=512, dim=5120, ffn_dim=13824, freq_dim=256, text_dim=4096, out_dim=16, num_heads=40,
              num_layers=40, window_size=(-1, -1), qk_norm=True, cross_attn_norm=True, eps=1e-6)


def clip_vision_h(dtype):
    cfg = json.load(open(rw.ROOT + "/ComfyUI/comfy/clip_vision_config_h.json"))
    return comfy.clip_model.CLIPVisionModelProjection(cfg, dtype, "meta", OPS)


# kind -> (builder of the module on meta, stored dtype, ComfyUI model config it must be detected as; None: not a diffusion model)
KINDS = {
    "s2v": (lambda dt: WanModel_S2V(**WAN14B, in_dim=16, device="meta", dtype=dt, operations=OPS), torch.float8_e4m3fn, "WAN22_S2V"),
    "animate": (lambda dt: AnimateWanModel(**WAN14B, in_dim=36, device="meta", dtype=dt, operations=OPS), torch.bfloat16, "WAN22_Animate"),
    "camera": (lambda dt: CameraWanModel(**WAN14B, model_type="camera_2.2", in_dim=36, device="meta", dtype=dt, operations=OPS), torch.float8_e4m3fn, "WAN22_Camera"),
    "wav2vec2": (lambda dt: Wav2Vec2Model(embed_dim=1024, num_heads=16, num_layers=24, conv_norm=True, conv_bias=True, do_normalize=True,
                                          do_stable_layer_norm=True, dtype=dt, operations=OPS), torch.float16, None),
    "clipvision": (clip_vision_h, torch.float16, None),
}


def module(kind, dtype):
    with torch.device("meta"):
        return KINDS[kind][0](dtype)


def check(kind):
    build, dtype, expected = KINDS[kind]
    sd = module(kind, torch.bfloat16 if dtype == torch.float8_e4m3fn else dtype).state_dict()
    odd = [k for k, t in sd.items() if not t.is_floating_point()]
    print(kind, f"{sum(t.numel() for t in sd.values())/1e9:.3f}B params", "non-float:", odd[:5], flush=True)
    if expected:
        import comfy.model_detection as md
        cfg = md.detect_unet_config(sd, "")
        got = type(md.model_config_from_unet_config(cfg, sd)).__name__
        print("detected:", {k: cfg.get(k) for k in ("model_type", "in_dim", "dim", "num_layers")}, "->", got, flush=True)
        assert got == expected, f"{kind} is detected as {got}, not {expected}"
    elif kind == "wav2vec2":
        assert "encoder.layer_norm.bias" in sd and sd["encoder.layer_norm.bias"].shape[0] == 1024, "not read as wav2vec2 large"
    elif kind == "clipvision":
        assert "vision_model.encoder.layers.30.layer_norm1.weight" in sd, "not read as CLIP vision H"


def build(kind, out):
    rw.GEN.manual_seed(int(os.environ.get("SEED", "1234")))
    dtype = KINDS[kind][1]
    state, n = rw.random_state_dict(module(kind, dtype), "", dtype)
    print(f"{kind}: {n/1e9:.3f}B params", flush=True)
    rw.save(state, out)


if __name__ == "__main__":
    t0 = time.time()
    if len(sys.argv) >= 3 and sys.argv[1] == "check" and sys.argv[2] in KINDS:
        check(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "build" and sys.argv[2] in KINDS:
        build(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
    print(f"done in {time.time()-t0:.0f}s, peak RSS {rw.rss_gb():.1f} GB", flush=True)
