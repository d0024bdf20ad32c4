"""
Reverie's character-model cache on a GPU server (docs/decisions/330): a person's LoRA is fetched on first use from a
short-lived signed Reverie link into a folder ComfyUI does not list, kept under its SHA-256 and checked against it
before it is ever used. The folder is bounded (least recently used files go first, fetched again when next needed) and
a file unused for `max_age_s` is deleted, so a copy Reverie could not evict (the server was down) is gone within that
time. Standard library only: unit-tested without ComfyUI (test_lora_cache.py).
"""

import hashlib
import os
import re
import threading
import time
import urllib.error
import urllib.request

SHA256 = re.compile(r"^[0-9a-f]{64}$")
CHUNK = 1 << 20


class LoraError(Exception):
    """The character model cannot be used: not fetched, or not the file Reverie named."""


class LoraCache:
    def __init__(self, root, max_bytes, max_age_s, timeout_s=60):
        self.root = root
        self.max_bytes = max_bytes
        self.max_age_s = max_age_s
        self.timeout_s = timeout_s
        # one at a time: ComfyUI runs one prompt at a time, and an eviction must not race a download of the same file
        self.lock = threading.RLock()
        os.makedirs(root, exist_ok=True)

    def path_of(self, sha256):
        if not SHA256.match(sha256 or ""):
            raise LoraError("the character model is named by no valid SHA-256")
        return os.path.join(self.root, sha256 + ".safetensors")

    def get(self, sha256, url):
        """The checked file of `sha256`: from the cache (marked as just used), else fetched from `url` first."""
        path = self.path_of(sha256)
        with self.lock:
            if os.path.exists(path):
                os.utime(path)
                return path
            self._fetch(sha256, url, path)
            return path

    def _fetch(self, sha256, url, path):
        if not url.startswith(("http://", "https://")):
            raise LoraError("the character model has no link to fetch it from")
        tmp = "%s.%d.part" % (path, os.getpid())
        digest = hashlib.sha256()
        size = 0
        try:
            with urllib.request.urlopen(url, timeout=self.timeout_s) as res, open(tmp, "wb") as out:
                while True:
                    chunk = res.read(CHUNK)
                    if not chunk:
                        break
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise LoraError("the character model is larger than this server's cache")
                    digest.update(chunk)
                    out.write(chunk)
            # the link's signature is not repeated in an error: history entries and logs keep it
            if digest.hexdigest() != sha256:
                raise LoraError("the character model fetched is not the file named (SHA-256 mismatch)")
            self._make_room(size)
            os.replace(tmp, path)
        except urllib.error.HTTPError as err:
            err.close()
            raise LoraError("the character model could not be fetched: HTTP %d" % err.code) from None
        except (urllib.error.URLError, OSError) as err:
            raise LoraError("the character model could not be fetched: %s" % getattr(err, "reason", err)) from None
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def entries(self):
        """The cached files, least recently used first: [(sha256, bytes, last used)]."""
        out = []
        for name in os.listdir(self.root):
            sha = name[: -len(".safetensors")]
            if name.endswith(".safetensors") and SHA256.match(sha):
                st = os.stat(os.path.join(self.root, name))
                out.append((sha, st.st_size, st.st_mtime))
        return sorted(out, key=lambda e: e[2])

    def _make_room(self, incoming):
        files = self.entries()
        total = sum(e[1] for e in files) + incoming
        for sha, size, _ in files:
            if total <= self.max_bytes:
                break
            os.remove(self.path_of(sha))
            total -= size

    def evict(self, sha256s):
        """Deletes these files (erasure); answers the ones this server held."""
        removed = []
        with self.lock:
            for sha in sha256s:
                path = self.path_of(sha)
                if os.path.exists(path):
                    os.remove(path)
                    removed.append(sha)
        return removed

    def sweep(self, now=None):
        """Deletes files unused for max_age_s, and downloads a crash left half-written."""
        now = time.time() if now is None else now
        with self.lock:
            for name in os.listdir(self.root):
                path = os.path.join(self.root, name)
                if name.endswith(".part") or now - os.stat(path).st_mtime > self.max_age_s:
                    os.remove(path)


def cache_from_env(default_root):
    """REVERIE_LORA_CACHE_DIR, REVERIE_LORA_CACHE_GB (default 20) and REVERIE_LORA_MAX_AGE_HOURS (default 24)."""
    return LoraCache(
        os.environ.get("REVERIE_LORA_CACHE_DIR") or default_root,
        int(float(os.environ.get("REVERIE_LORA_CACHE_GB", "20")) * 1024**3),
        float(os.environ.get("REVERIE_LORA_MAX_AGE_HOURS", "24")) * 3600,
    )
