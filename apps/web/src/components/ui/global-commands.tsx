"use client";
import { useTheme } from "next-themes";
import { usePathname, useRouter } from "next/navigation";
import { useMemo } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useCommand, useCommands } from "../../lib/commands.tsx";
import { useDebug } from "../../lib/debug-mode.tsx";
import { ShellForest } from "../../lib/shell-forest.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { neighbourThread } from "../../lib/shortcuts.ts";
import { preopenThreadDetail } from "../../lib/use-thread-detail.ts";
import { nextMode } from "./theme-toggle.tsx";

function threadIdIn(pathname: string): string | null {
  const match = /^\/threads\/([^/]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** The commands that exist on every page: navigation, new thread, next/previous thread, theme. */
export function GlobalCommands() {
  const router = useRouter();
  const client = useApi();
  const pathname = usePathname();
  const { shells, projects } = useShells();
  const { setPaletteOpen } = useCommands();
  const { theme, setTheme } = useTheme();
  const { debug, setDebug } = useDebug();
  const current = threadIdIn(pathname);
  const projectMatch = /^\/projects\/([^/]+)/.exec(pathname);
  const projectId =
    (current ? shells.get(current)?.projectId : undefined) ??
    (projectMatch ? decodeURIComponent(projectMatch[1]!) : undefined) ??
    projects[0]?.id;

  // Sidebar order, so Alt+↓ goes to the row below (folded projects and forks included). Built
  // when a shortcut asks for it, not on every change of the list: at 100,000 threads a build
  // costs tens of ms, and the list changes with every page and search answer (issue 29).
  const order = useMemo(() => {
    let ids: string[] | null = null;
    return () =>
      (ids ??= new ShellForest(shells)
        .rows(projects, { query: "", collapsed: new Set() })
        .flatMap((row) => (row.kind === "thread" ? [row.shell.id] : [])));
  }, [projects, shells]);
  const go = (step: 1 | -1) => {
    // The address bar, not this render's pathname: a shortcut pressed right after a navigation
    // must step from the thread now shown, even before this component has re-rendered.
    const shown = threadIdIn(window.location.pathname) ?? current;
    const next = neighbourThread(order(), shown, step);
    if (!next) return;
    preopenThreadDetail(client, next, shells.get(next)?.runCount);
    router.push(`/threads/${next}`);
  };

  useCommand(
    {
      id: "new-thread",
      label: "New thread",
      group: "Thread",
      shortcut: "newThread",
      run: () => projectId && router.push(`/projects/${projectId}/new`),
    },
    projectId !== undefined,
  );
  useCommand({
    id: "next-thread",
    label: "Next thread",
    group: "Go to",
    shortcut: "nextThread",
    run: () => go(1),
  });
  useCommand({
    id: "previous-thread",
    label: "Previous thread",
    group: "Go to",
    shortcut: "previousThread",
    run: () => go(-1),
  });
  useCommand({ id: "go-projects", label: "Projects", group: "Go to", run: () => router.push("/") });
  useCommand({
    id: "go-approvals",
    label: "Approvals",
    group: "Go to",
    run: () => router.push("/approvals"),
  });
  useCommand({
    id: "toggle-theme",
    label: `Theme: switch to ${nextMode(theme)}`,
    group: "View",
    shortcut: "toggleTheme",
    keywords: ["dark", "light", "appearance"],
    run: () => setTheme(nextMode(theme)),
  });
  useCommand({
    id: "toggle-debug",
    label: debug ? "Hide debug details" : "Show debug details",
    group: "View",
    keywords: ["raw", "frames", "ids", "events", "plumbing"],
    run: () => setDebug(!debug),
  });
  useCommand({
    id: "palette",
    label: "Command palette",
    group: "View",
    shortcut: "palette",
    run: () => setPaletteOpen(true),
  });
  return null;
}
