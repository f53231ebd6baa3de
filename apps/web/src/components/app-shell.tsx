"use client";
import { type ReactNode, useState } from "react";
import { ThemeProvider, useTheme } from "next-themes";
import { Toaster } from "sonner";
import { ApiProvider } from "../lib/api-context.tsx";
import { CommandsProvider } from "../lib/commands.tsx";
import { DebugProvider } from "../lib/debug-mode.tsx";
import { QueryProvider } from "../lib/query/query-provider.tsx";
import { ShellsProvider } from "../lib/shells-store.tsx";
import { AuthBanner } from "./common/auth-banner.tsx";
import { Sidebar } from "./sidebar/sidebar.tsx";
import { CommandPalette } from "./ui/command-palette.tsx";
import { GlobalCommands } from "./ui/global-commands.tsx";

/**
 * Everything that outlives a page: the API client, the query cache, the live thread list and the
 * sidebar.
 */
export function AppShell({ apiUrl, children }: { apiUrl: string; children: ReactNode }) {
  // Narrow screens show the sidebar as an overlay; a navigation closes it.
  const [sidebarOpen, setSidebarOpen] = useState(false);
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      <ApiProvider apiUrl={apiUrl}>
        <QueryProvider>
          <DebugProvider>
            <ShellsProvider>
              <CommandsProvider>
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
                <ThemedToaster />
                <GlobalCommands />
                <CommandPalette />
              </CommandsProvider>
            </ShellsProvider>
          </DebugProvider>
        </QueryProvider>
      </ApiProvider>
    </ThemeProvider>
  );
}

function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Toaster
      position="bottom-right"
      closeButton
      richColors
      theme={resolvedTheme === "dark" ? "dark" : "light"}
    />
  );
}
