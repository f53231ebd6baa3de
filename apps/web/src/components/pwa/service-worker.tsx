"use client";
import { useEffect } from "react";

/** B20: registers the service worker (public/sw.js) once the page is up; where none can run, nothing. */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Not a secure context, or blocked: the app works the same, only not offline.
    });
  }, []);
  return null;
}
