import { execCommandReply, responsesTextReply } from "@skein/fake-models";
import type { RunId, ThreadId, ThreadState } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { type CodexSkeinHarness, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

const harness = useCodexSkeinHarness();

/** No login shell (a slow profile could let the turn end first). */
const NO_LOGIN = { extra: { login: false } };

function commandOutput(state: ThreadState, runId: RunId): string {
  const command = [...state.turnItems.values()]
    .map((entry) => entry.item)
    .find((item) => item.type === "command_execution" && item.runId === runId);
  if (command?.type !== "command_execution") throw new Error(`run ${runId} ran no command`);
  return command.output ?? "";
}

/** One run of `threadId` whose agent prints its PORT; resolves with what the command printed. */
async function printedPort(x: CodexSkeinHarness, threadId: ThreadId): Promise<string> {
  x.server.enqueue(execCommandReply('echo "PORT=$PORT"', NO_LOGIN), responsesTextReply("done"));
  const { runId, run } = await x.run(threadId, "which port is yours?");
  expect(run.status).toBe("completed");
  return commandOutput(await x.thread(threadId), runId);
}

/**
 * Issue 34 (B21) with issue 26: a thread's PORT goes with the Codex thread (its config), not the
 * app-server's process environment, so threads of one folder share one runtime (a new thread
 * spawns no process) and each thread's commands still see its own PORT.
 */
describe("issue 34: Codex threads with PORTs of their own share one runtime", () => {
  it("B21: two threads in one folder run on one app-server; each command sees its own thread's PORT, also after the other ran", async () => {
    const x = await harness();
    const first = await x.createThread({ runtimeMode: "full-access" });
    const second = await x.createThread({ runtimeMode: "full-access" });

    const outputs = [
      await printedPort(x, first),
      await printedPort(x, second),
      await printedPort(x, first),
    ];

    const ports = [(await x.thread(first)).thread!.port, (await x.thread(second)).thread!.port];
    expect(ports[0]).not.toBeNull();
    expect(ports[1]).not.toBeNull();
    expect(ports[0]).not.toBe(ports[1]);
    expect(outputs[0]).toContain(`PORT=${ports[0]}\n`);
    expect(outputs[1]).toContain(`PORT=${ports[1]}\n`);
    expect(outputs[2]).toContain(`PORT=${ports[0]}\n`);
    // One process served both threads: no runtime was opened per PORT.
    expect(x.codexSessions).toHaveLength(1);
    expect(x.sent("initialize")).toHaveLength(1);
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 1, loadedThreads: 2 });
  });
});
