// Reverie's service worker: makes the app installable, keeps the app shell and an offline page (docs/decisions/270).
// Hashed build assets are immutable, so they are served cache-first; pages go to the network first and, when the
// device is offline, get the offline page. API answers and media (signed URLs) are never cached: balances and
// results must be live, and a signed URL must not outlive its signature in a cache.
const CACHE = "reverie-shell-v2";
const OFFLINE = "/offline.html";
const SHELL = [OFFLINE, "/manifest.webmanifest", "/icon.svg", "/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // the offline page, manifest and icons: the network first (the server revalidates them on every load, so a deploy
  // reaches people at once), the copy kept at install when offline, so the offline page has its icon
  if (SHELL.includes(url.pathname)) {
    event.respondWith(fetch(req).catch(() => caches.match(req).then((hit) => hit ?? Response.error())));
    return;
  }
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ??
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
    return;
  }
  // pages only: /api/ and /media/ are fetched by the page itself and pass through untouched
  if (req.mode === "navigate" && !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/media/")) {
    event.respondWith(fetch(req).catch(() => caches.match(OFFLINE).then((hit) => hit ?? Response.error())));
  }
});
