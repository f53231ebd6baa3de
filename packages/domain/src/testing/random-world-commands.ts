import type { Command } from "../commands.ts";
import type { ProviderSessionStatus } from "../entities/provider-session.ts";
import type { ProjectId, ProviderSessionId, ThreadId } from "../ids.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { ALL_CAPABILITIES, id } from "./fixtures.ts";

/**
 * Random commands for property tests (domain and db): abstract actions a property test draws, turned into concrete commands against the current
 * state. Most aim at a target where the command applies; a `wild` flag picks any target, so some
 * commands are rejected by `decide`.
 */
export const THREAD_ACTIONS = [
  "queue",
  "start",
  "turn",
  "item",
  "delta",
  "completeItem",
  "request",
  "resolve",
  "finish",
  "interrupt",
  "cancel",
  "checkpoint",
  "rollback",
  "steer",
] as const;
/** Actions only the domain's own properties draw (the store suites leave them out). */
export const EXTRA_THREAD_ACTIONS = ["fail", "recover", "restart", "retry"] as const;
export const WORLD_ACTIONS = ["project", "renameProject", "session", "thread", "fork"] as const;

export type ThreadAction = (typeof THREAD_ACTIONS)[number] | (typeof EXTRA_THREAD_ACTIONS)[number];
export type WorldAction = (typeof WORLD_ACTIONS)[number];
export type Action = {
  kind: ThreadAction | WorldAction;
  target: number;
  pick: number;
  flag: number;
};

const SESSION_STATUSES: readonly ProviderSessionStatus[] = ["ready", "running", "stopped", "error"];

export function pickOf<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}

/** Commands that create or address projects, sessions and threads as a whole. */
export function worldCommand(
  a: Action & { kind: WorldAction },
  n: string,
  world: { projects: ProjectId[]; sessions: ProviderSessionId[]; threads: ThreadId[] },
  /** The fork source's current state, when `a` is a fork. */
  source?: ThreadState,
): Command | null {
  const project = pickOf(world.projects, a.target) ?? id("project", "none");
  switch (a.kind) {
    case "project":
      return {
        type: "CreateProject",
        // Now and then reuse an existing id: a conflict.
        data: {
          projectId: a.flag % 8 === 0 ? project : id("project", n),
          title: `Project ${n}`,
          workspaceRoot: `/work/${n}`,
        },
      };
    case "renameProject":
      return { type: "RenameProject", data: { projectId: project, title: `Renamed ${n}` } };
    case "session": {
      const existing = pickOf(world.sessions, a.target);
      if (existing && a.flag % 2 === 0) {
        const status = pickOf(SESSION_STATUSES, a.pick) ?? "ready";
        return {
          type: "ChangeProviderSessionStatus",
          data: { providerSessionId: existing, status },
        };
      }
      return {
        type: "OpenProviderSession",
        data: {
          providerSessionId: id("providerSession", n),
          provider: a.flag % 3 === 0 ? "claude" : "codex",
          cwd: "/work",
          capabilities: ALL_CAPABILITIES,
        },
      };
    }
    case "thread":
      return {
        type: "CreateThread",
        data: {
          threadId: id("thread", n),
          projectId: project,
          title: `Thread ${n}`,
          defaultProvider: a.flag % 2 ? "codex" : "claude",
        },
      };
    case "fork": {
      const sourceThreadId = source?.thread?.id;
      if (!sourceThreadId) return null;
      const run = pickOf(source.runOrder, a.pick);
      return {
        type: "ForkThread",
        data: {
          threadId: id("thread", n),
          sourceThreadId,
          // A run point may name an unsettled run: the fork is then refused (T2).
          sourcePoint:
            a.flag % 3 === 0 && run ? { type: "run", runId: run } : { type: "latest_stable" },
          createdBy: "user",
          relationship: "fork",
        },
      };
    }
  }
}
