// B20: Skein's service worker. It keeps the app shell (pages and their assets) so the app opens
// offline and shows the last pending approvals it saw; it shows Web Push notifications and opens
// the exact request or thread a click is about. Data comes from the API, never from this cache,
// whenever the network answers.
const SHELL = "skein-shell-v1";
const START = ["/approvals"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(START))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

// Same-origin GETs only (the API is another origin): network first, the cached copy offline.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(SHELL).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches
          .match(request)
          .then(
            (hit) => hit ?? (request.mode === "navigate" ? caches.match("/approvals") : undefined),
          )
          .then((hit) => hit ?? Response.error()),
      ),
  );
});

self.addEventListener("push", (event) => {
  let notice = { title: "Skein", body: "Something needs you.", url: "/approvals", tag: undefined };
  try {
    notice = { ...notice, ...event.data.json() };
  } catch {
    // A message we cannot read still tells the person to look.
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: "/icons/icon-192.png",
      data: { url: notice.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/approvals", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) return open.navigate(url).then((w) => (w ?? open).focus());
      return self.clients.openWindow(url);
    }),
  );
});
