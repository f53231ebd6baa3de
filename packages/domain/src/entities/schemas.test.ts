import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { parseCommand } from "../commands.ts";
import { decideProject } from "../project/decide-project.ts";
import { initialProjectState } from "../state/project-state.ts";
import { formatZodError, parseWith } from "../errors.ts";
import { DomainEvent } from "../events.ts";
import type { ProviderCapabilityFlags } from "../provider/capabilities.ts";
import { testMeta } from "../testing/decider-spec.ts";
import { ALL_CAPABILITIES, id } from "../testing/fixtures.ts";
import { richScenario } from "../testing/rich-scenario.ts";
import { AppThread, AppThreadLineage } from "./app-thread.ts";
import { Checkpoint } from "./checkpoint.ts";
import { CheckpointScope } from "./checkpoint-scope.ts";
import { ContextHandoff, HandoffPayload } from "./context-handoff.ts";
import { ContextSourcePoint } from "./context-source-point.ts";
import { ContextTransfer, ContextTransferResolution } from "./context-transfer.ts";
import { ConversationMessage } from "./conversation-message.ts";
import { ExecutionNode } from "./execution-node.ts";
import { PlanArtifact } from "./plan-artifact.ts";
import { Project } from "./project.ts";
import { ProviderCapabilities, ProviderSession } from "./provider-session.ts";
import { ProviderThread } from "./provider-thread.ts";
import { ProviderTurn } from "./provider-turn.ts";
import { RawProviderEvent } from "./raw-provider-event.ts";
import { Run } from "./run.ts";
import { RunAttempt } from "./run-attempt.ts";
import { RuntimeRequest } from "./runtime-request.ts";
import { TurnItem } from "./turn-item.ts";

const rich = richScenario();
const st = rich.s.state;
const first = <V>(map: ReadonlyMap<unknown, V>): V => {
  const value = map.values().next().value;
  if (value === undefined) throw new Error("empty map");
  return value;
};
const projectResult = decideProject(
  {
    type: "CreateProject",
    data: { projectId: id("project", "p"), title: "P", workspaceRoot: "/w" },
  },
  initialProjectState(),
  testMeta(),
);
const project =
  projectResult.ok && projectResult.events[0]?.type === "ProjectCreated"
    ? projectResult.events[0].data.project
    : null;

type Case = {
  name: string;
  schema: z.ZodType;
  valid: unknown;
  bad: (v: Record<string, unknown>) => unknown;
  path: string;
};
const mutate = (v: unknown, patch: Record<string, unknown>) => ({ ...(v as object), ...patch });

const CASES: Case[] = [
  {
    name: "Project",
    schema: Project,
    valid: project,
    bad: (v) => mutate(v, { title: "" }),
    path: "title",
  },
  {
    name: "AppThread",
    schema: AppThread,
    valid: st.thread,
    bad: (v) => mutate(v, { runtimeMode: "yolo" }),
    path: "runtimeMode",
  },
  {
    name: "AppThreadLineage",
    schema: AppThreadLineage,
    valid: st.thread?.lineage,
    bad: (v) => mutate(v, { rootThreadId: "run_x" }),
    path: "rootThreadId",
  },
  {
    name: "Run",
    schema: Run,
    valid: first(st.runs),
    bad: (v) => mutate(v, { status: "paused" }),
    path: "status",
  },
  {
    name: "RunAttempt",
    schema: RunAttempt,
    valid: first(st.attempts),
    bad: (v) => mutate(v, { attemptOrdinal: 0 }),
    path: "attemptOrdinal",
  },
  {
    name: "ExecutionNode",
    schema: ExecutionNode,
    valid: first(st.nodes),
    bad: (v) => mutate(v, { kind: "thing" }),
    path: "kind",
  },
  {
    name: "CheckpointScope",
    schema: CheckpointScope,
    valid: first(st.checkpointScopes),
    bad: (v) => mutate(v, { cwd: "" }),
    path: "cwd",
  },
  {
    name: "Checkpoint",
    schema: Checkpoint,
    valid: first(st.checkpoints),
    bad: (v) =>
      mutate(v, { files: [{ path: "a", additions: -1, deletions: 0, status: "modified" }] }),
    path: "files[0].additions",
  },
  {
    name: "ProviderSession",
    schema: ProviderSession,
    valid: {
      id: "pss_1",
      provider: "codex",
      status: "ready",
      cwd: "/w",
      model: null,
      capabilities: ALL_CAPABILITIES,
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:00.000Z",
      lastError: null,
    },
    bad: (v) => mutate(v, { capabilities: { ...ALL_CAPABILITIES, steer: "yes" } }),
    path: "capabilities.steer",
  },
  {
    name: "ProviderCapabilities",
    schema: ProviderCapabilities,
    valid: ALL_CAPABILITIES,
    bad: (v) => mutate(v, { nativeFork: undefined }),
    path: "nativeFork",
  },
  {
    name: "ProviderThread",
    schema: ProviderThread,
    valid: first(st.providerThreads),
    bad: (v) => mutate(v, { firstRunOrdinal: 4, lastRunOrdinal: 2 }),
    path: "lastRunOrdinal",
  },
  {
    name: "ProviderTurn",
    schema: ProviderTurn,
    valid: first(st.providerTurns),
    bad: (v) => mutate(v, { usage: { inputTokens: 1.5, outputTokens: 0 } }),
    path: "usage.inputTokens",
  },
  {
    name: "ContextTransfer",
    schema: ContextTransfer,
    valid: first(st.transfers),
    bad: (v) => mutate(v, { type: "teleport" }),
    path: "type",
  },
  {
    name: "ContextSourcePoint",
    schema: ContextSourcePoint,
    valid: first(st.transfers).sourcePoint,
    bad: (v) => mutate(v, { runId: "thr_x" }),
    path: "runId",
  },
  {
    name: "ContextTransferResolution",
    schema: ContextTransferResolution,
    valid: first(st.transfers).resolution,
    bad: () => ({ strategy: "portable_context" }),
    path: "contextHandoffId",
  },
  {
    name: "ContextHandoff",
    schema: ContextHandoff,
    valid: first(st.handoffs),
    bad: (v) => mutate(v, { coveredRunOrdinals: { from: 3, to: 1 } }),
    path: "coveredRunOrdinals.to",
  },
  {
    name: "HandoffPayload",
    schema: HandoffPayload,
    valid: first(st.handoffs).payload,
    bad: (v) => mutate(v, { version: 2 }),
    path: "version",
  },
  {
    name: "RuntimeRequest",
    schema: RuntimeRequest,
    valid: first(st.requests),
    bad: (v) => mutate(v, { responseCapability: { type: "live" } }),
    path: "responseCapability.providerSessionId",
  },
  {
    name: "ConversationMessage",
    schema: ConversationMessage,
    valid: first(st.messages),
    bad: (v) => mutate(v, { role: "tool" }),
    path: "role",
  },
  {
    name: "PlanArtifact",
    schema: PlanArtifact,
    valid: first(st.plans),
    bad: (v) => mutate(v, { steps: [{ id: "1", text: "x", status: "done" }] }),
    path: "steps[0].status",
  },
  {
    name: "RawProviderEvent",
    schema: RawProviderEvent,
    valid: {
      id: "raw_1",
      provider: "claude",
      providerSessionId: "pss_1",
      sequence: 1,
      direction: "incoming",
      messageKind: "notification",
      method: "turn/started",
      jsonRpcId: null,
      payload: {},
      observedAt: "2025-01-01T00:00:00.000Z",
    },
    bad: (v) => mutate(v, { direction: "sideways" }),
    path: "direction",
  },
];

describe("entity schemas", () => {
  for (const c of CASES) {
    it(`${c.name}: accepts what decide produced and rejects malformed data with a path-qualified message`, () => {
      expect(c.valid).toBeTruthy();
      const ok = parseWith(c.schema, c.valid);
      if (!ok.ok) throw new Error(ok.error.message);
      const bad = parseWith(c.schema, c.bad(c.valid as Record<string, unknown>));
      expect(bad.ok).toBe(false);
      if (bad.ok) return;
      expect(bad.error.code).toBe("validation");
      expect(bad.error.message).toMatch(new RegExp(`^${c.path.replace(/[[\].]/g, "\\$&")}: `, "m"));
      expect(bad.error.issues.map((i) => i.path)).toContain(c.path);
    });
  }

  it("every turn item variant the scenario produced parses, and a wrong variant field is reported by path", () => {
    const items = [...st.turnItems.values(), ...rich.fork.state.turnItems.values()].map(
      (e) => e.item,
    );
    const types = new Set(items.map((i) => i.type));
    expect([...types].sort()).toEqual(
      [
        "approval_request",
        "assistant_message",
        "checkpoint",
        "command_execution",
        "compaction",
        "dynamic_tool",
        "file_change",
        "file_search",
        "fork",
        "handoff",
        "plan",
        "reasoning",
        "user_message",
        "web_search",
      ].sort(),
    );
    for (const item of items) expect(TurnItem.safeParse(item).success).toBe(true);
    const fileChange = items.find((i) => i.type === "file_change");
    const rejection = (value: unknown) => {
      const result = TurnItem.safeParse(value);
      return result.success ? "(accepted)" : formatZodError(result.error);
    };
    expect(rejection({ ...fileChange, additions: "three" })).toMatch(/^additions: /m);
    expect(rejection({ ...fileChange, type: "teleport" })).toMatch(/^type: /m);
  });

  it("every event decide emitted in the scenario matches the event schema", () => {
    for (const event of [...rich.s.events, ...rich.fork.events]) {
      const parsed = DomainEvent.safeParse(event);
      if (!parsed.success) throw new Error(`${event.type}: ${formatZodError(parsed.error)}`);
    }
  });

  it("parseCommand rejects malformed commands with readable, path-qualified messages", () => {
    const result = parseCommand({
      type: "QueueRun",
      data: { threadId: "run_1", runId: "run_1", messageId: "msg_1", text: "", provider: "GPT 5" },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toContain("data.threadId: expected a ThreadId");
    expect(result.error.message).toMatch(/^data\.text: /m);
    expect(result.error.message).toMatch(/^data\.provider: /m);
    const unknown = parseCommand({ type: "Teleport", data: {} });
    expect(!unknown.ok && unknown.error.message).toMatch(/^type: /);
    const root = parseCommand(42);
    expect(!root.ok && root.error.message).toMatch(/^\(root\): /);
  });

  it("ProviderCapabilities has exactly the provider interface's capability flags", () => {
    const fromSchema: ProviderCapabilityFlags = ALL_CAPABILITIES;
    const fromInterface: ProviderCapabilities = fromSchema;
    expect(Object.keys(ProviderCapabilities.shape).sort()).toEqual(
      Object.keys(fromInterface).sort(),
    );
  });
});
