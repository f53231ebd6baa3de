import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  anthropicBashReply,
  anthropicTextReply,
  execCommandReply,
  responsesTextReply,
} from "@skein/fake-models";
import type { ProjectId, RunId, ThreadId, ThreadState } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import { createGitWorkspace } from "./support/git-workspace.ts";

let h: ClaudeSkeinHarness | undefined;
let meeting: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (meeting) rmSync(meeting, { recursive: true, force: true });
});

/** No login shell (a slow profile could let the turn end first), and time to finish. */
const NO_LOGIN = { extra: { login: false, yield_time_ms: 60_000 } };

/**
 * The agent's command: what its runtime sees (PORT, folder, the copied .env), then a rendezvous
 * with the other thread's command through marker files. It prints `met` only if the other
 * command was running too, so both printing it proves the two runs ran at once (no clock).
 */
function agentCommand(dir: string, me: string, other: string): string {
  return [
    'echo "PORT=$PORT"',
    'echo "CWD=$(pwd -P)"',
    "cat .env",
    `touch ${dir}/${me}`,
    "i=0",
    `while [ ! -f ${dir}/${other} ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done`,
    `[ -f ${dir}/${other} ] && echo met`,
  ].join("; ");
}

/**
 * A Codex and a Claude thread of the project, each running `agentCommand` at once (they meet in
 * `dir`); resolves once both runs have settled.
 */
async function bothCheckTheirEnvironment(
  x: ClaudeSkeinHarness,
  projectId: ProjectId,
  dir: string,
): Promise<{ threads: Record<"codex" | "claude", ThreadId>; sent: Array<{ runId: RunId }> }> {
  const { orchestrator } = x;
  const threadOn = async (provider: "codex" | "claude") =>
    (await orchestrator.createThread({ projectId, provider, runtimeMode: "full-access" })).threadId;
  const threads = { codex: await threadOn("codex"), claude: await threadOn("claude") };
  x.openai!.enqueue(
    execCommandReply(agentCommand(dir, "codex", "claude"), NO_LOGIN),
    responsesTextReply("codex checked its environment"),
  );
  x.anthropic.enqueue(
    anthropicBashReply(agentCommand(dir, "claude", "codex")),
    anthropicTextReply("claude checked its environment"),
  );
  const sent = await Promise.all(
    (["codex", "claude"] as const).map((provider) =>
      orchestrator.sendMessage({ threadId: threads[provider], text: "check the environment" }),
    ),
  );
  await Promise.all(sent.map(({ runId }) => orchestrator.waitForRun(runId)));
  return { threads, sent };
}

function commandOutput(state: ThreadState, runId: RunId): string {
  const command = [...state.turnItems.values()]
    .map((entry) => entry.item)
    .find((item) => item.type === "command_execution" && item.runId === runId);
  if (command?.type !== "command_execution") throw new Error(`run ${runId} ran no command`);
  return command.output ?? "";
}

describe("issue 26 item 3: a worktree per thread on real Codex and Claude over real git", () => {
  it("B14: two threads running at once, each in its own worktree with its setup run once, .env copied and its own PORT seen by the runtime", async () => {
    h = await createClaudeSkeinHarness({ codex: "real" });
    const ws = createGitWorkspace({ "README.md": "# app\n" });
    writeFileSync(path.join(ws, ".env"), "FROM_ENV=yes\n");
    meeting = mkdtempSync(path.join(tmpdir(), "skein-meet-"));
    const orchestrator = h.orchestrator;
    const { projectId } = await orchestrator.createProject({
      name: "app",
      workspaceRoot: ws,
      settings: {
        setupScript: 'echo "setting up on port $PORT"; echo ran >> .setup-ran',
        portRange: { from: 4810, to: 4819 },
      },
    });
    const { threads, sent } = await bothCheckTheirEnvironment(h, projectId, meeting);

    const seen = new Map<string, { port: number; worktree: string }>();
    for (const [index, provider] of (["codex", "claude"] as const).entries()) {
      const state = await h.thread(threads[provider]);
      const thread = state.thread!;
      const runId = sent[index]!.runId;
      expect(state.runs.get(runId)?.status, provider).toBe("completed");
      const worktree = thread.worktreePath!;
      expect(worktree).toBe(path.join(h.dataDir, "worktrees", thread.id));
      expect(thread.port).toBeGreaterThanOrEqual(4810);
      expect(thread.port).toBeLessThanOrEqual(4819);

      const output = commandOutput(state, runId);
      expect(output, provider).toContain(`PORT=${thread.port}\n`);
      expect(output, provider).toContain(`CWD=${realpathSync(worktree)}\n`);
      expect(output, provider).toContain("FROM_ENV=yes\n");
      expect(output.trimEnd().endsWith("met"), `${provider} ran while the other ran`).toBe(true);

      // The setup script ran once in this worktree, before the run, with the thread's PORT.
      expect(readFileSync(path.join(worktree, ".setup-ran"), "utf8")).toBe("ran\n");
      expect(thread.workspaceSetup).toMatchObject({
        status: "succeeded",
        copied: [".env"],
        output: `setting up on port ${thread.port}\n`,
      });
      seen.set(provider, { port: thread.port!, worktree });
    }
    expect(seen.get("codex")!.port).not.toBe(seen.get("claude")!.port);
    expect(seen.get("codex")!.worktree).not.toBe(seen.get("claude")!.worktree);
    // The person's folder got none of it.
    expect(readFileSync(path.join(ws, "README.md"), "utf8")).toBe("# app\n");
    expect(() => readFileSync(path.join(ws, ".setup-ran"))).toThrow();
  }, 180_000);

  it("issue 26: two threads in the project's own folder (no worktree) running at once each see a PORT of their own", async () => {
    h = await createClaudeSkeinHarness({ codex: "real" });
    const ws = createGitWorkspace({ "README.md": "# app\n" });
    writeFileSync(path.join(ws, ".env"), "FROM_ENV=yes\n");
    meeting = mkdtempSync(path.join(tmpdir(), "skein-meet-"));
    const orchestrator = h.orchestrator;
    const { projectId } = await orchestrator.createProject({
      name: "app",
      workspaceRoot: ws,
      settings: { threadWorkspace: "local", portRange: { from: 4830, to: 4839 } },
    });
    const { threads, sent } = await bothCheckTheirEnvironment(h, projectId, meeting);

    const ports: number[] = [];
    for (const [index, provider] of (["codex", "claude"] as const).entries()) {
      const state = await h.thread(threads[provider]);
      const thread = state.thread!;
      const runId = sent[index]!.runId;
      expect(state.runs.get(runId)?.status, provider).toBe("completed");
      expect(thread.worktreePath, provider).toBeNull();
      expect(thread.port).toBeGreaterThanOrEqual(4830);
      expect(thread.port).toBeLessThanOrEqual(4839);
      const output = commandOutput(state, runId);
      expect(output, provider).toContain(`PORT=${thread.port}\n`);
      expect(output, provider).toContain(`CWD=${realpathSync(ws)}\n`);
      expect(output.trimEnd().endsWith("met"), `${provider} ran while the other ran`).toBe(true);
      ports.push(thread.port!);
    }
    expect(ports[0]).not.toBe(ports[1]);
  }, 180_000);
});
