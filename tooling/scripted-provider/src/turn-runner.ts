import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  type AppToolHandler,
  ProviderFailureError,
  providerFailureOf,
  type RuntimeEvent,
  type RuntimeRequestAnswer,
  type ThreadSettings,
} from "@skein/domain/provider";
import type { AsyncQueue } from "@skein/adapter-kit";
import type { NativeStore, NativeTurn } from "./native-store.ts";
import type { ScriptStep } from "./script.ts";

export type PendingRequest = { resolve: (answer: RuntimeRequestAnswer) => void };

/** Shared mutable state of one running scripted turn. */
export type TurnRun = {
  turn: NativeTurn;
  nativeThreadRef: string;
  queue: AsyncQueue<RuntimeEvent>;
  settings: ThreadSettings;
  onAppToolCall: AppToolHandler | undefined;
  store: NativeStore;
  requests: Map<string, PendingRequest>;
  interrupted: boolean;
  /** Wakes a pending wait/request early when the turn is interrupted or the session dies. */
  abort: (() => void) | null;
};

class TurnAborted extends Error {}

function applyFileEdit(cwd: string, file: string, content: string | null): void {
  const target = path.resolve(cwd, file);
  if (content === null) rmSync(target, { force: true });
  else {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

function sleep(run: TurnRun, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      run.abort = null;
      resolve();
    }, ms);
    run.abort = () => {
      clearTimeout(timer);
      reject(new TurnAborted());
    };
  });
}

function ask(run: TurnRun, event: Extract<RuntimeEvent, { type: "request.opened" }>) {
  return new Promise<RuntimeRequestAnswer>((resolve, reject) => {
    run.requests.set(event.requestRef, { resolve });
    run.abort = () => {
      run.requests.delete(event.requestRef);
      reject(new TurnAborted());
    };
    run.queue.push(event);
  }).finally(() => {
    run.abort = null;
  });
}

async function runStep(run: TurnRun, step: ScriptStep, parentItemRef: string | null) {
  if (run.interrupted) throw new TurnAborted();
  const itemRef = run.store.nextRef("item");
  const push = (event: RuntimeEvent) => run.queue.push(event);
  switch (step.type) {
    case "text": {
      const chunks = Math.max(1, step.chunks ?? 1);
      const size = Math.ceil(step.text.length / chunks);
      push({ type: "item.started", itemRef, kind: "assistant_message", parentItemRef, fields: {} });
      let sent = "";
      try {
        for (let at = 0; at < step.text.length; at += size) {
          if (step.delayMs) await sleep(run, step.delayMs);
          const delta = step.text.slice(at, at + size);
          sent += delta;
          push({ type: "item.delta", itemRef, field: "text", delta });
        }
      } catch (error) {
        // Like a real runtime, an interrupted message still ends: with what was streamed so far.
        push({
          type: "item.completed",
          itemRef,
          kind: "assistant_message",
          parentItemRef,
          status: "interrupted",
          fields: { text: sent },
        });
        throw error;
      }
      if (!parentItemRef) run.turn.assistantText += step.text;
      const fields = { text: step.text };
      push({
        type: "item.completed",
        itemRef,
        kind: "assistant_message",
        parentItemRef,
        status: "completed",
        fields,
      });
      return;
    }
    case "reasoning": {
      push({ type: "item.started", itemRef, kind: "reasoning", parentItemRef, fields: {} });
      push({ type: "item.delta", itemRef, field: "text", delta: step.text });
      const fields = { text: step.text };
      push({
        type: "item.completed",
        itemRef,
        kind: "reasoning",
        parentItemRef,
        status: "completed",
        fields,
      });
      return;
    }
    case "command":
    case "file_change": {
      const kind = step.type === "command" ? "command_execution" : "file_change";
      const fields =
        step.type === "command"
          ? { command: step.command, cwd: run.settings.cwd }
          : { changes: [{ path: step.path, kind: "update" as const, diff: step.diff }] };
      push({ type: "item.started", itemRef, kind, parentItemRef, fields });
      if (step.approval && run.settings.runtimeMode === "approval-required") {
        const answer = await ask(run, {
          type: "request.opened",
          requestRef: run.store.nextRef("request"),
          kind: step.type === "command" ? "command" : "file-change",
          itemRef,
          summary: step.type === "command" ? `Run ${step.command}` : `Edit ${step.path}`,
          ...fields,
        });
        if (answer.decision === "decline" || answer.decision === "cancel") {
          push({
            type: "item.completed",
            itemRef,
            kind,
            parentItemRef,
            status: "declined",
            fields,
          });
          return;
        }
      }
      if (step.type === "command") {
        push({ type: "item.delta", itemRef, field: "output", delta: step.output });
        const done = { ...fields, output: step.output, exitCode: step.exitCode ?? 0 };
        push({
          type: "item.completed",
          itemRef,
          kind,
          parentItemRef,
          status: "completed",
          fields: done,
        });
      } else {
        if (step.content !== undefined) applyFileEdit(run.settings.cwd, step.path, step.content);
        push({ type: "item.completed", itemRef, kind, parentItemRef, status: "completed", fields });
      }
      return;
    }
    case "plan":
      push({ type: "plan.updated", planRef: itemRef, kind: "todo_list", steps: step.steps });
      return;
    case "question": {
      const requestRef = run.store.nextRef("request");
      const summary = step.questions.map((q) => q.question).join(" / ");
      await ask(run, {
        type: "request.opened",
        requestRef,
        kind: "user_input",
        itemRef: null,
        summary,
        questions: step.questions,
      });
      return;
    }
    case "app_tool": {
      const input = step.input;
      push({
        type: "item.started",
        itemRef,
        kind: "dynamic_tool",
        parentItemRef,
        fields: { toolName: step.toolName, input },
      });
      if (!run.onAppToolCall) throw new Error(`no handler for app tool ${step.toolName}`);
      const result = await run.onAppToolCall({
        toolName: step.toolName,
        input,
        callRef: itemRef,
        nativeThreadRef: run.nativeThreadRef,
      });
      const status = result.isError ? "failed" : "completed";
      const fields = { toolName: step.toolName, input, result: result.output };
      push({
        type: "item.completed",
        itemRef,
        kind: "dynamic_tool",
        parentItemRef,
        status,
        fields,
      });
      return;
    }
    case "subagent": {
      const fields = { description: step.description };
      push({ type: "item.started", itemRef, kind: "subagent", parentItemRef, fields });
      for (const child of step.steps) await runStep(run, child, itemRef);
      push({
        type: "item.completed",
        itemRef,
        kind: "subagent",
        parentItemRef,
        status: "completed",
        fields,
      });
      return;
    }
    case "wait":
      await sleep(run, step.ms);
      return;
    case "fail":
      throw new ProviderFailureError({ kind: step.kind ?? "internal", message: step.error });
  }
}

/** Runs a turn's script to exactly one `turn.completed`, whatever happens on the way. */
export async function runTurn(run: TurnRun, steps: ScriptStep[]): Promise<void> {
  run.queue.push({ type: "turn.started", nativeTurnRef: run.turn.ref });
  try {
    for (const step of steps) await runStep(run, step, null);
    run.turn.status = run.interrupted ? "interrupted" : "completed";
    run.queue.push({
      type: "turn.completed",
      nativeTurnRef: run.turn.ref,
      status: run.turn.status,
    });
  } catch (error) {
    if (run.interrupted || error instanceof TurnAborted) {
      run.turn.status = "interrupted";
      run.queue.push({
        type: "turn.completed",
        nativeTurnRef: run.turn.ref,
        status: "interrupted",
      });
    } else {
      run.turn.status = "failed";
      const failure = providerFailureOf(error);
      run.queue.push({
        type: "turn.completed",
        nativeTurnRef: run.turn.ref,
        status: "failed",
        error: failure.message,
        failure,
      });
    }
  } finally {
    run.queue.end();
  }
}
