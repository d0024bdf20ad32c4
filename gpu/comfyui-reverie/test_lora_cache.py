"""Reverie's ComfyUI LoRA cache and nodes, without ComfyUI: `python3 -m unittest discover -s gpu/comfyui-reverie`."""

import asyncio
import hashlib
import http.server
import importlib.util
import json
import os
import sys
import tempfile
import threading
import time
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lora_cache import LoraCache, LoraError  # noqa: E402

FILES = {}
HITS = []


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        HITS.append(self.path)
        body = FILES.get(self.path.split("?")[0])
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def read(path):
    with open(path, "rb") as f:
        return f.read()


def sha(b):
    return hashlib.sha256(b).hexdigest()


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=cls.httpd.serve_forever, daemon=True).start()
        cls.base = "http://127.0.0.1:%d" % cls.httpd.server_address[1]

    @classmethod
    def tearDownClass(cls):
        cls.httpd.shutdown()

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        FILES.clear()
        HITS.clear()

    def tearDown(self):
        self.dir.cleanup()

    def serve(self, name, body):
        FILES["/" + name] = body
        return self.base + "/" + name + "?sig=x"


class CacheTest(Base):
    def test_fetches_once_checks_the_hash_and_reuses(self):
        body = os.urandom(3000)
        url = self.serve("a", body)
        cache = LoraCache(self.dir.name, 10_000, 3600)
        path = cache.get(sha(body), url)
        self.assertEqual(read(path), body)
        self.assertEqual(cache.get(sha(body), url), path)
        self.assertEqual(len(HITS), 1)

    def test_refuses_a_file_that_is_not_the_one_named(self):
        url = self.serve("a", b"not the weights")
        cache = LoraCache(self.dir.name, 10_000, 3600)
        with self.assertRaisesRegex(LoraError, "SHA-256 mismatch"):
            cache.get(sha(b"the weights"), url)
        self.assertEqual(os.listdir(self.dir.name), [])

    def test_a_dead_link_fails_without_naming_it(self):
        cache = LoraCache(self.dir.name, 10_000, 3600)
        with self.assertRaises(LoraError) as err:
            cache.get(sha(b"x"), self.base + "/gone?sig=secret")
        self.assertIn("HTTP 404", str(err.exception))
        self.assertNotIn("secret", str(err.exception))

    def test_refuses_bad_names_and_links(self):
        cache = LoraCache(self.dir.name, 10_000, 3600)
        with self.assertRaises(LoraError):
            cache.get("../../etc/passwd", self.base + "/a")
        with self.assertRaises(LoraError):
            cache.get(sha(b"x"), "file:///etc/passwd")

    def test_least_recently_used_goes_first_and_comes_back_on_demand(self):
        a, b, c = os.urandom(400), os.urandom(400), os.urandom(400)
        ua, ub, uc = self.serve("a", a), self.serve("b", b), self.serve("c", c)
        cache = LoraCache(self.dir.name, 1000, 3600)
        cache.get(sha(a), ua)
        old = time.time() - 100
        os.utime(cache.get(sha(b), ub), (old, old))
        cache.get(sha(a), ua)
        cache.get(sha(c), uc)
        self.assertEqual(sorted(e[0] for e in cache.entries()), sorted([sha(a), sha(c)]))
        self.assertEqual(read(cache.get(sha(b), ub)), b)
        self.assertEqual(len(HITS), 4)
        self.assertLessEqual(sum(e[1] for e in cache.entries()), 1000)

    def test_a_file_larger_than_the_cache_is_refused(self):
        body = os.urandom(2000)
        cache = LoraCache(self.dir.name, 1000, 3600)
        with self.assertRaisesRegex(LoraError, "larger"):
            cache.get(sha(body), self.serve("a", body))

    def test_evict_and_sweep(self):
        a, b = os.urandom(100), os.urandom(100)
        cache = LoraCache(self.dir.name, 10_000, 3600)
        cache.get(sha(a), self.serve("a", a))
        old = time.time() - 7200
        os.utime(cache.get(sha(b), self.serve("b", b)), (old, old))
        self.assertEqual(cache.evict([sha(a), sha(os.urandom(9))]), [sha(a)])
        open(os.path.join(self.dir.name, "x.part"), "wb").close()
        cache.sweep()
        self.assertEqual(os.listdir(self.dir.name), [])


class NodeTest(Base):
    """The nodes and routes as ComfyUI loads them, its modules stood in for."""

    def load(self):
        calls = []
        comfy = types.ModuleType("comfy")
        comfy.sd = types.SimpleNamespace(load_lora_for_models=lambda m, c, l, sm, sc: calls.append((m, c, l, sm, sc)) or (m + "+lora", c))
        comfy.utils = types.SimpleNamespace(load_torch_file=lambda p, safe_load: {"read": read(p)})
        stubs = {
            "comfy": comfy,
            "comfy.sd": comfy.sd,
            "comfy.utils": comfy.utils,
            "folder_paths": types.SimpleNamespace(
                models_dir=self.dir.name, get_input_directory=lambda: self.inputs, get_output_directory=lambda: self.outputs
            ),
            "server": types.SimpleNamespace(PromptServer=types.SimpleNamespace(instance=types.SimpleNamespace(routes=Routes()))),
            "aiohttp": types.SimpleNamespace(web=types.SimpleNamespace(json_response=lambda body, status=200: (status, body))),
        }
        saved = {k: sys.modules.get(k) for k in stubs}
        sys.modules.update(stubs)
        try:
            spec = importlib.util.spec_from_file_location("reverie_nodes", os.path.join(HERE, "__init__.py"), submodule_search_locations=[HERE])
            mod = importlib.util.module_from_spec(spec)
            sys.modules["reverie_nodes"] = mod
            spec.loader.exec_module(mod)
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
        return mod, calls, stubs["server"].PromptServer.instance.routes

    def test_loaders_fetch_by_hash_and_the_evict_route_deletes(self):
        mod, calls, routes = self.load()
        self.assertEqual(set(mod.NODE_CLASS_MAPPINGS), {"ReverieLoraLoader", "ReverieLoraLoaderModelOnly"})
        body = os.urandom(500)
        url = self.serve("lora", body)
        model, clip = mod.ReverieLoraLoader().load_lora("m", "c", sha(body), url, 0.8, 0.8)
        self.assertEqual((model, clip), ("m+lora", "c"))
        self.assertEqual(calls[0][2], {"read": body})
        loader = mod.ReverieLoraLoaderModelOnly()
        self.assertEqual(loader.load_lora_model_only("m", sha(body), url + "&new", 0.5), ("m+lora",))
        self.assertEqual(len(HITS), 1)
        status, answer = asyncio.run(routes.handlers["POST /reverie/loras/evict"](Request({"sha256": [sha(body)]})))
        self.assertEqual((status, answer), (200, {"removed": [sha(body)]}))
        self.assertIsNone(loader.loaded)
        status, _ = asyncio.run(routes.handlers["POST /reverie/loras/evict"](Request({"sha256": ["../x"]})))
        self.assertEqual(status, 400)
        with self.assertRaisesRegex(mod.LoraError, "HTTP 404"):
            mod.ReverieLoraLoader().load_lora("m", "c", sha(body), self.base + "/gone", 1, 1)


    def test_the_inputs_route_deletes_only_reverie_uploads_of_the_named_prompts(self):
        self.inputs = tempfile.mkdtemp(dir=self.dir.name)
        mod, _, routes = self.load()
        pid, other = "0f4c2b9e-1c1d-4c1e-9a43-2f1b6c8d9e01", "7d1e0a52-9b3c-4f7e-8d21-6a5c4b3e2f10"
        names = [f"reverie-{pid}.jpg", f"reverie-{pid}-end.png", f"reverie-{pid}-audio.mp3", f"reverie-{pid}-ref1.png", f"reverie-{other}.jpg", f"{pid}.jpg", "example.png"]
        for n in names:
            open(os.path.join(self.inputs, n), "wb").close()
        os.symlink(os.path.join(self.inputs, "example.png"), os.path.join(self.inputs, f"reverie-{pid}-link.png"))
        handler = routes.handlers["POST /reverie/inputs/delete"]
        status, answer = asyncio.run(handler(Request({"prompt_ids": [pid]})))
        self.assertEqual(status, 200)
        self.assertEqual(sorted(answer["removed"]), sorted(names[:4]))
        self.assertEqual(sorted(os.listdir(self.inputs)), sorted([f"reverie-{other}.jpg", f"{pid}.jpg", "example.png", f"reverie-{pid}-link.png"]))
        for bad in [{"prompt_ids": ["../x"]}, {"prompt_ids": "x"}, None, {"prompt_ids": [f"{pid}/.."]}]:
            status, _ = asyncio.run(handler(Request(bad)))
            self.assertEqual(status, 400)

    def test_the_outputs_route_deletes_only_what_comfyui_saved_under_reverie_s_prefix_for_the_named_prompts(self):
        self.outputs = tempfile.mkdtemp(dir=self.dir.name)
        mod, _, routes = self.load()
        handler = routes.handlers["POST /reverie/outputs/delete"]
        pid, other = "0f4c2b9e-1c1d-4c1e-9a43-2f1b6c8d9e01", "7d1e0a52-9b3c-4f7e-8d21-6a5c4b3e2f10"
        # no folder of Reverie's yet: nothing to delete
        self.assertEqual(asyncio.run(handler(Request({"prompt_ids": [pid]}))), (200, {"removed": []}))
        ours = os.path.join(self.outputs, "reverie")
        os.makedirs(os.path.join(ours, "sub"))
        # what SaveImage / SaveVideo write for the prefix reverie/<pid> (folder_paths.get_save_image_path)
        made = [f"{pid}_00001_.png", f"{pid}_00002_.mp4", f"{pid}_100000_.webp"]
        kept = [f"{other}_00001_.png", f"{pid}.png", f"{pid}_00001_.png.part", "ComfyUI_00001_.png", f"reverie-{pid}.jpg"]
        for n in made + kept:
            open(os.path.join(ours, n), "wb").close()
        for n in [f"{pid}_00001_.png", "ComfyUI_00001_.png"]:
            open(os.path.join(self.outputs, n), "wb").close()
        open(os.path.join(ours, "sub", f"{pid}_00001_.png"), "wb").close()
        elsewhere = os.path.join(self.dir.name, "elsewhere.png")
        open(elsewhere, "wb").close()
        os.symlink(elsewhere, os.path.join(ours, f"{pid}_00003_.png"))
        status, answer = asyncio.run(handler(Request({"prompt_ids": [pid]})))
        self.assertEqual((status, sorted(answer["removed"])), (200, sorted(made)))
        self.assertEqual(sorted(os.listdir(ours)), sorted(kept + ["sub", f"{pid}_00003_.png"]))
        self.assertEqual(sorted(os.listdir(self.outputs)), sorted(["reverie", f"{pid}_00001_.png", "ComfyUI_00001_.png"]))
        self.assertTrue(os.path.exists(elsewhere) and os.path.exists(os.path.join(ours, "sub", f"{pid}_00001_.png")))
        # a `reverie` that leads out of the output folder is not ours
        outside = tempfile.mkdtemp(dir=self.dir.name)
        open(os.path.join(outside, f"{pid}_00001_.png"), "wb").close()
        os.rename(ours, ours + "-old")
        os.symlink(outside, ours)
        self.assertEqual(asyncio.run(handler(Request({"prompt_ids": [pid]}))), (200, {"removed": []}))
        self.assertEqual(os.listdir(outside), [f"{pid}_00001_.png"])
        for bad in [{"prompt_ids": ["../x"]}, {"prompt_ids": "x"}, None, {"prompt_ids": [f"{pid}/.."]}, {"prompt_ids": [pid.upper()]}, {"prompt_ids": [1]}]:
            status, _ = asyncio.run(handler(Request(bad)))
            self.assertEqual(status, 400)

    def test_the_fixture_describes_the_nodes_as_comfyui_does(self):
        """tests/fixtures/comfyui/reverie-nodes.json is what /object_info says of these nodes (server.py's node_info):
        the fake ComfyUI and the workflow check read it. REVERIE_WRITE_OBJECT_INFO=1 rewrites it."""
        mod, _, _ = self.load()
        info = {}
        for name, cls in mod.NODE_CLASS_MAPPINGS.items():
            info[name] = {
                "input": cls.INPUT_TYPES(),
                "input_order": {k: list(v.keys()) for k, v in cls.INPUT_TYPES().items()},
                "output": list(cls.RETURN_TYPES),
                "output_is_list": [False] * len(cls.RETURN_TYPES),
                "output_name": list(cls.RETURN_TYPES),
                "name": name,
                "display_name": mod.NODE_DISPLAY_NAME_MAPPINGS[name],
                "description": "",
                # what ComfyUI's loader sets for a custom node package of this folder's name
                "python_module": "custom_nodes.comfyui-reverie",
                "category": cls.CATEGORY,
                "output_node": False,
            }
        fixture = os.path.join(HERE, "..", "..", "tests", "fixtures", "comfyui", "reverie-nodes.json")
        if os.environ.get("REVERIE_WRITE_OBJECT_INFO"):
            with open(fixture, "w") as f:
                json.dump(info, f, indent=2)
                f.write("\n")
        with open(fixture) as f:
            self.assertEqual(json.load(f), json.loads(json.dumps(info)))


class Routes:
    def __init__(self):
        self.handlers = {}

    def _add(self, method, path):
        def wrap(fn):
            self.handlers["%s %s" % (method, path)] = fn
            return fn

        return wrap

    def post(self, path):
        return self._add("POST", path)

    def get(self, path):
        return self._add("GET", path)


class Request:
    def __init__(self, body):
        self.body = body

    async def json(self):
        return self.body


if __name__ == "__main__":
    unittest.main()
