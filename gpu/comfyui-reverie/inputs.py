"""
The input files Reverie uploaded for a prompt, deleted once the prompt has ended (docs/decisions/376): stock ComfyUI
0.3.64 can write files into input/ (/upload/image) but delete none, so a person's photo, video or sound would stay on
the GPU server. Reverie names each upload `reverie-<prompt id>[-<part>].<ext>`; only such files are ever deleted here,
so nothing an operator or another client put in input/ can be touched through this route.
"""

import os
import re

PROMPT_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
REVERIE_INPUT = re.compile(r"^reverie-([0-9a-f-]{36})(?:-[a-z0-9]+)?(?:\.[A-Za-z0-9]+)?$")


def delete_inputs(input_dir, prompt_ids):
    """Deletes the files Reverie uploaded into `input_dir` (top level only) for `prompt_ids`; answers their names."""
    wanted = set(prompt_ids)
    removed = []
    for name in sorted(os.listdir(input_dir)):
        m = REVERIE_INPUT.match(name)
        path = os.path.join(input_dir, name)
        if m and m.group(1) in wanted and os.path.isfile(path) and not os.path.islink(path):
            try:
                os.remove(path)
                removed.append(name)
            except FileNotFoundError:
                pass
    return removed
