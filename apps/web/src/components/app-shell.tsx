"use client";
import { type ReactNode, useState } from "react";
import { ApiProvider } from "../lib/api-context.tsx";
import { ShellsProvider } from "../lib/shells-store.tsx";
import { AuthBanner } from "./common/auth-banner.tsx";
import { Sidebar } from "./sidebar/sidebar.tsx";

/** Everything that outlives a page: the API client, the live thread list and the sidebar. */
export function AppShell({ apiUrl, children }: { apiUrl: string; children: ReactNode }) {
  // Narrow screens show the sidebar as an overlay; a navigation closes it.
  const [sidebarOpen, setSidebarOpen] = useState(false);
  return (
    <ApiProvider apiUrl={apiUrl}>
      <ShellsProvider>
        <div className={`app${sidebarOpen ? " sidebar-open" : ""}`}>
          <button
            type="button"
            className="sidebar-toggle"
            aria-expanded={sidebarOpen}
            aria-controls="sidebar"
            onClick={() => setSidebarOpen((open) => !open)}
          >
            {sidebarOpen ? "Close threads" : "Threads"}
          </button>
          <div id="sidebar" className="sidebar-frame">
            <Sidebar
              onNavigate={() => {
                // Let the link's own click run first, then fold the overlay away.
                setTimeout(() => setSidebarOpen(false), 0);
              }}
            />
          </div>
          <main className="main" id="main">
            <AuthBanner />
            {children}
          </main>
        </div>
      </ShellsProvider>
    </ApiProvider>
  );
}
