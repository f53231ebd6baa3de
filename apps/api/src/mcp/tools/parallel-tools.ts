import type { RouterInputs as Inputs } from "@skein/contract";
import { ThreadId } from "@skein/domain";
import { COMMAND, defineTool, inputOf, READ } from "../tool-kit.ts";

/** Forks, fan-outs, comparing forks and bringing one back (T1, B9, T8). */

export const forkThread = defineTool<Inputs["thread"]["fork"]>({
  name: "skein_fork_thread",
  description:
    "Forks a thread at its latest stable point (or sourcePoint: a run or checkpoint) into a new thread (recorded as made by you). Nothing runs and no provider is chosen until its first message. isolatedWorkspace: false shares the source's folder instead of a worktree of its own. Pass a commandId (cmd_…) to make a retry safe.",
  input: inputOf("thread.fork"),
  annotations: COMMAND,
  run: (args, { api }) => api.thread.fork(args),
});

export const fanOut = defineTool<Inputs["thread"]["fanOut"]>({
  name: "skein_fan_out",
  description:
    "Sends one message to 1–8 new forks of a thread at once, each in its own worktree, one per target { provider, model?, effort? } (isolated must be true). Answers the forks at once; their runs proceed in the background. Compare them with skein_compare_forks, bring one back with skein_bring_back.",
  input: inputOf("thread.fanOut"),
  annotations: COMMAND,
  run: (args, { api }) => api.thread.fanOut(args),
});

export const compareForks = defineTool<Inputs["thread"]["compare"]>({
  name: "skein_compare_forks",
  description:
    "Compares forks side by side: latest run status, duration, usage, files changed since the fork point, files two live forks both changed, and optionally a checkCommand's result run in each fork's worktree.",
  input: inputOf("thread.compare"),
  annotations: READ,
  run: (args, { api }) => api.thread.compare(args),
});

type BringBackArgs = Pick<
  Inputs["thread"]["sendMessage"],
  "threadId" | "text" | "provider" | "code" | "handoffText" | "commandId"
> & { forkThreadId: string };

export const bringBack = defineTool<BringBackArgs>({
  name: "skein_bring_back",
  description:
    "Brings a fork's work back into the thread it was forked from: the text is sent to threadId as its next message with the fork's conversation since the fork point as context; code: squash also merges the fork's files into the thread's workspace first (conflicts are refused, nothing changed), merge also commits them. Returns the run id. Pass a commandId (cmd_…) to make a retry safe.",
  input: inputOf("thread.sendMessage")
    .pick({ threadId: true, text: true, provider: true, code: true, handoffText: true })
    .extend({ forkThreadId: ThreadId, commandId: inputOf("thread.sendMessage").shape.commandId }),
  annotations: COMMAND,
  run: ({ forkThreadId, ...message }, { api }) =>
    api.thread.sendMessage({ ...message, bringBackFrom: forkThreadId }),
});
