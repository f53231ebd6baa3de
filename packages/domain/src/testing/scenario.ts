import type { ThreadCommand } from "../commands.ts";
import type { ForkSourcePointSpec } from "../commands/thread-lifecycle-commands.ts";
import type { ProviderKind } from "../entities/common.ts";
import type { ThreadEvent } from "../events.ts";
import {
  asId,
  createSequentialIds,
  type IdSource,
  type ProviderThreadId,
  type RunId,
  type ThreadId,
} from "../ids.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";
import { readThreads } from "./fixtures.ts";
import { evolveThread } from "../state/evolve-thread.ts";
import { initialThreadState, type ThreadState } from "../state/thread-state.ts";
import { decideThread } from "../thread/decide-thread.ts";

const BASE = Date.UTC(2025, 0, 1);

/** Drives a thread through commands (decide + evolve) to reach states tests start from. */
export class ThreadScenario {
  readonly events: ThreadEvent[] = [];
  readonly state: ThreadState = initialThreadState();
  readonly ids: IdSource;
  readonly threadId: ThreadId;
  private tick = 0;
  context: DecideContext = {};

  constructor(name = "main") {
    this.threadId = asId("thread", `thr_${name}`);
    this.ids = createSequentialIds(name);
  }

  now(): string {
    return new Date(BASE + this.tick * 1000).toISOString();
  }

  meta(): CommandMeta {
    this.tick += 1;
    return { commandId: this.ids.next("command"), at: this.now(), ids: this.ids };
  }

  exec(command: ThreadCommand): ThreadEvent[] {
    const result = decideThread(command, this.state, this.meta(), this.context);
    if (!result.ok) throw new Error(`${command.type} failed: ${result.error.message}`);
    for (const event of result.events) {
      evolveThread(this.state, event);
      this.events.push(event);
    }
    return result.events;
  }

  create(defaultProvider: ProviderKind = "codex", title = "Main"): this {
    this.exec({
      type: "CreateThread",
      data: {
        threadId: this.threadId,
        projectId: asId("project", "prj_p"),
        title,
        defaultProvider,
      },
    });
    return this;
  }

  /** Makes this (not yet created) thread a user's fork of `source` at `sourcePoint`. */
  forkOf(
    source: ThreadScenario,
    sourcePoint: ForkSourcePointSpec = { type: "latest_stable" },
  ): this {
    this.context = readThreads(source.state);
    this.exec({
      type: "ForkThread",
      data: {
        threadId: this.threadId,
        sourceThreadId: source.threadId,
        sourcePoint,
        createdBy: "user",
        relationship: "fork",
      },
    });
    return this;
  }

  queue(
    text = "hello",
    provider: ProviderKind = "codex",
    extra: { bringBackFrom?: ThreadId } = {},
  ): RunId {
    const runId = this.ids.next("run");
    this.exec({
      type: "QueueRun",
      data: {
        threadId: this.threadId,
        runId,
        messageId: this.ids.next("message"),
        text,
        provider,
        ...extra,
      },
    });
    return runId;
  }

  providerThread(provider: ProviderKind = "codex"): ProviderThreadId {
    const providerThreadId = this.ids.next("providerThread");
    this.exec({
      type: "RecordProviderThread",
      data: {
        threadId: this.threadId,
        providerThreadId,
        provider,
        nativeThreadRef: `native-${providerThreadId}`,
      },
    });
    return providerThreadId;
  }

  /** Starts a queued run on a (new or given) provider thread and its first provider turn. */
  start(runId: RunId, providerThreadId?: ProviderThreadId, withTurn = true) {
    const run = this.state.runs.get(runId);
    const pt = providerThreadId ?? this.providerThread(run?.provider ?? "codex");
    const attemptId = this.ids.next("attempt");
    const rootNodeId = this.ids.next("node");
    this.exec({
      type: "StartRun",
      data: { threadId: this.threadId, runId, attemptId, rootNodeId, providerThreadId: pt },
    });
    const providerTurnId = this.ids.next("providerTurn");
    if (withTurn) {
      this.exec({
        type: "StartProviderTurn",
        data: {
          threadId: this.threadId,
          runId,
          providerTurnId,
          nativeTurnRef: `turn-${providerTurnId}`,
        },
      });
    }
    return { attemptId, rootNodeId, providerThreadId: pt, providerTurnId };
  }

  say(providerTurnId: ReturnType<ThreadScenario["start"]>["providerTurnId"], text: string) {
    const nodeId = this.ids.next("node");
    this.exec({
      type: "StartItem",
      data: { threadId: this.threadId, providerTurnId, nodeId, kind: "assistant_message" },
    });
    this.exec({ type: "AppendItemDelta", data: { threadId: this.threadId, nodeId, delta: text } });
    this.exec({
      type: "CompleteItem",
      data: { threadId: this.threadId, nodeId, status: "completed" },
    });
    return nodeId;
  }

  finish(
    providerTurnId: ReturnType<ThreadScenario["start"]>["providerTurnId"],
    status: "completed" | "interrupted" | "failed" = "completed",
  ): void {
    this.exec({
      type: "CompleteProviderTurn",
      data: { threadId: this.threadId, providerTurnId, status },
    });
  }

  /** Captures a ready root-run checkpoint for a run. */
  checkpoint(runId: RunId) {
    const run = this.state.runs.get(runId);
    if (!run?.rootNodeId) throw new Error(`run ${runId} has not started`);
    const scopeId = this.ids.next("checkpointScope");
    this.exec({
      type: "RecordCheckpointScope",
      data: {
        threadId: this.threadId,
        scopeId,
        kind: "root_run",
        nodeId: run.rootNodeId,
        cwd: "/w",
      },
    });
    const checkpointId = this.ids.next("checkpoint");
    this.exec({
      type: "RecordCheckpoint",
      data: {
        threadId: this.threadId,
        checkpointId,
        scopeId,
        ref: `refs/skein/${checkpointId}`,
        status: "ready",
        files: [{ path: "a.ts", additions: 1, deletions: 0, status: "modified" }],
      },
    });
    return checkpointId;
  }

  /** A whole run: queue, start, reply, complete, and (optionally) checkpoint. */
  completedRun(
    text = "hello",
    options: {
      provider?: ProviderKind;
      providerThreadId?: ProviderThreadId;
      checkpoint?: boolean;
    } = {},
  ) {
    const runId = this.queue(text, options.provider ?? "codex");
    const started = this.start(runId, options.providerThreadId);
    this.say(started.providerTurnId, `reply to ${text}`);
    this.finish(started.providerTurnId);
    const checkpointId = options.checkpoint ? this.checkpoint(runId) : null;
    return { runId, checkpointId, ...started };
  }
}
