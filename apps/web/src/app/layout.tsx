import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AppShell } from "../components/app-shell.tsx";
import { ServiceWorkerRegistration } from "../components/pwa/service-worker.tsx";
import { loadWebEnv } from "../env.ts";
import "highlight.js/styles/github.css";
import "./globals.css";

export const metadata: Metadata = {
  title: "Skein",
  description: "Threads, forks and handoffs across coding agents",
};
export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#222838",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Read the API address per request, not at build time: one build serves any port.
  await connection();
  const { apiUrl } = loadWebEnv();
  return (
    // next-themes sets the theme class on <html> before React hydrates (no flash of the wrong theme).
    <html lang="en" suppressHydrationWarning>
      <body>
        <AppShell apiUrl={apiUrl}>{children}</AppShell>
        <ServiceWorkerRegistration />
      </body>
    </html>
  );
}
