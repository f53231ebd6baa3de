import type { MetadataRoute } from "next";

/** B20: the installable app; it opens on the approvals, what a phone is mostly for. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Skein",
    short_name: "Skein",
    description: "Approvals, questions and news from your coding agents",
    start_url: "/approvals",
    scope: "/",
    display: "standalone",
    background_color: "#222838",
    theme_color: "#222838",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    ],
  };
}
