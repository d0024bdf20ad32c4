"""
The files a prompt of Reverie's left on the GPU server, deleted once the prompt has ended (docs/decisions/376, 393):
stock ComfyUI 0.3.64 writes files into input/ (/upload/image) and output/ (its save nodes) but deletes none, so a
person's photo, video or sound, and the pictures and clips made of them, would stay on the server. Only names Reverie
gives are ever deleted, so nothing an operator or another client put there can be touched through these routes:
- inputs: Reverie uploads each as `reverie-<prompt id>[-<part>].<ext>` (top level of input/);
- outputs: Reverie sets every save node's filename_prefix to `reverie/<prompt id>`, and ComfyUI's save nodes
  (folder_paths.get_save_image_path) write `<prefix's name>_<counter, 5 digits or more>_.<ext>` into that subfolder:
  `output/reverie/<prompt id>_00001_.png`.
"""

import os
import re

PROMPT_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
REVERIE_INPUT = re.compile(r"^reverie-([0-9a-f-]{36})(?:-[a-z0-9]+)?(?:\.[A-Za-z0-9]+)?$")
REVERIE_OUTPUT = re.compile(r"^([0-9a-f-]{36})_[0-9]{5,}_\.[A-Za-z0-9]+$")
# the subfolder of output/ Reverie's prefix names
OUTPUT_SUBFOLDER = "reverie"


def delete_inputs(input_dir, prompt_ids):
    """Deletes the files Reverie uploaded into `input_dir` (top level only) for `prompt_ids`; answers their names."""
    return _delete(input_dir, REVERIE_INPUT, prompt_ids)


def delete_outputs(output_dir, prompt_ids):
    """Deletes the files ComfyUI saved for `prompt_ids` under Reverie's prefix (`output_dir/reverie/`, top level only);
    answers their names. A `reverie` that is a link, or no folder, holds nothing of ours."""
    folder = os.path.join(output_dir, OUTPUT_SUBFOLDER)
    if os.path.islink(folder) or not os.path.isdir(folder):
        return []
    return _delete(folder, REVERIE_OUTPUT, prompt_ids)


def _delete(folder, pattern, prompt_ids):
    """Deletes the regular files (never a link) of `folder` whose name matches `pattern` for one of `prompt_ids`."""
    wanted = set(prompt_ids)
    removed = []
    for name in sorted(os.listdir(folder)):
        m = pattern.match(name)
        path = os.path.join(folder, name)
        if m and m.group(1) in wanted and os.path.isfile(path) and not os.path.islink(path):
            try:
                os.remove(path)
                removed.append(name)
            except FileNotFoundError:
                pass
    return removed
