import type { RouterInputs as Inputs } from "@skein/contract";
import { RunId, ThreadId } from "@skein/domain";
import { z } from "zod";
import { COMMAND, defineTool, inputOf, READ } from "../tool-kit.ts";
import { waitForRun } from "../wait-run.ts";

/** Messages and their runs: send one, wait for its run to end. */

/** How long one `skein_wait_run` may wait at most (a longer wait is another call). */
export const MAX_WAIT_MS = 300_000;

export const sendMessage = defineTool<
  Omit<Inputs["thread"]["sendMessage"], "bringBackFrom" | "code" | "attachments">
>({
  name: "skein_send_message",
  description:
    "Sends a message to a thread; it runs on provider (left out: the thread's default) and the answer is the runId at once, while the run proceeds in the background (see skein_wait_run). Another provider than the thread's last gets the conversation as a handoff. Pass a commandId (cmd_…) to make a retry safe.",
  input: inputOf("thread.sendMessage").omit({ bringBackFrom: true, code: true, attachments: true }),
  annotations: COMMAND,
  run: (args, { api }) => api.thread.sendMessage(args),
});

const WaitRunInput = z.object({
  threadId: ThreadId,
  runId: RunId,
  timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).default(30_000),
});

export const waitRun = defineTool<z.output<typeof WaitRunInput>>({
  name: "skein_wait_run",
  description: `Waits until a run ends, at most timeoutMs (default 30000, at most ${MAX_WAIT_MS}), and answers its status, error, reply (its last assistant message) and the files it changed. done: false means the time ran out first; call again to keep waiting.`,
  input: WaitRunInput,
  annotations: READ,
  run: (args, call) => waitForRun(call, args),
});
