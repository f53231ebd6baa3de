import type { RouterInputs as Inputs } from "@skein/contract";
import { z } from "zod";
import { READ, COMMAND, defineTool, inputOf } from "../tool-kit.ts";
import { shellPage, threadWindow } from "../thread-view.ts";

/** Projects and threads: find them, read one window of a thread, start a thread. */

export const listProjects = defineTool<Record<string, never>>({
  name: "skein_list_projects",
  description:
    "Lists Skein's projects (a workspace folder each). Threads are created in a project; pass its projectId to skein_create_thread.",
  input: z.object({}),
  annotations: READ,
  async run(_args, { api }) {
    const { projects, snapshotSequence } = await api.project.list();
    return {
      projects: projects.map((p) => ({
        projectId: p.id,
        title: p.title,
        workspaceRoot: p.workspaceRoot,
        defaultProvider: p.defaultProvider,
      })),
      snapshotSequence,
    };
  },
});

export const listThreads = defineTool<Omit<Inputs["thread"]["shells"] & object, "atSequence">>({
  name: "skein_list_threads",
  description:
    "Lists threads, newest activity first, one page at a time: filter by projectId, search titles with query, archived: true for archived ones; pass nextCursor back as cursor for the next page.",
  input: inputOf("thread.shells").omit({ atSequence: true }),
  annotations: READ,
  run: async (args, { api }) => shellPage(await api.thread.shells(args)),
});

export const readThread = defineTool<Omit<Inputs["thread"]["detail"], "atSequence">>({
  name: "skein_read_thread",
  description:
    "Reads one window of a thread's conversation: its runs (status, provider, error), items (messages, tool calls, file changes, approvals, forks, handoffs) and pending requests. The latest 50 runs by default; window { limit, before | after | aroundRun } pages (before/after come from a previous answer's window).",
  input: inputOf("thread.detail").omit({ atSequence: true }),
  annotations: READ,
  run: async (args, { api }) => threadWindow(await api.thread.detail(args)),
});

export const createThread = defineTool<Inputs["thread"]["create"]>({
  name: "skein_create_thread",
  description:
    "Creates a thread in a project (recorded as started by you, the calling agent). provider picks the default provider of its runs; nothing runs until skein_send_message. Pass a commandId (cmd_…) to make a retry safe: the same commandId answers the first result again.",
  input: inputOf("thread.create"),
  annotations: COMMAND,
  run: (args, { api }) => api.thread.create(args),
});
