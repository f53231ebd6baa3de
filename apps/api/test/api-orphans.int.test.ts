import { type ChildProcess, spawn as spawnProcess } from "node:child_process";
import fs from "node:fs";
import {
  anthropicSlowTextReply,
  createCodexTestHome,
  responsesSlowTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { dataDirKey, OWNER_VARIABLE, processStartTime } from "../src/runtime/provider-processes.ts";
import { type ChildServer, spawnEntry } from "./support/child-server.ts";
import { useCleanups } from "./support/cleanups.ts";

const { cleanups, dir } = useCleanups();

function startApi(env: Record<string, string>): ChildServer {
  const server = spawnEntry("src/main.ts", { SKEIN_API_PORT: "0", ...env });
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
    }
    await server.exited;
  });
  return server;
}

/** A process counts as gone once /proc has no entry for it, or only a zombie's. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Every live process carrying the owner mark of the API process `apiPid`. */
function providerProcessesOf(apiPid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = fs.readFileSync(`/proc/${name}/environ`, "utf8");
      const mark = environ.split("\0").find((e) => e.startsWith(`${OWNER_VARIABLE}=`));
      if (mark?.split(":")[1] === String(apiPid) && alive(Number(name))) out.push(Number(name));
    } catch {
      // gone or not readable
    }
  }
  return out;
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(process.platform === "linux")(
  "no orphan provider processes (issue 14 item 7)",
  () => {
    it("B1: SIGKILL of the API during a Codex turn and a Claude turn leaves no provider process after 1 s", async () => {
      const openai = await startFakeResponsesServer({
        defaultReply: responsesSlowTextReply(Array(200).fill("codex "), 200),
      });
      cleanups.push(() => openai.close());
      const anthropic = await startFakeMessagesServer();
      cleanups.push(() => anthropic.close());
      anthropic.enqueue(anthropicSlowTextReply("claude ".repeat(200), 200));
      const home = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
      cleanups.push(() => home.remove());
      const dataDir = dir("skein-orphans-");
      const workspace = dir("skein-orphans-ws-");
      const api = startApi({
        SKEIN_DATA_DIR: dataDir,
        CODEX_HOME: home.dir,
        RUST_LOG: "error",
        ANTHROPIC_BASE_URL: anthropic.url,
        ANTHROPIC_API_KEY: "test",
        CLAUDE_CONFIG_DIR: dir("skein-orphans-claude-"),
      });
      await api.ready;
      const apiPid = api.child.pid!;
      const client = createSkeinClient({ url: api.url });
      const { projectId } = await client.project.create.mutate({
        name: "p",
        workspaceRoot: workspace,
      });
      for (const provider of ["codex", "claude"] as const) {
        const { threadId } = await client.thread.create.mutate({ projectId, provider });
        await client.thread.sendMessage.mutate({ threadId, text: `talk slowly, ${provider}` });
      }
      // Both turns stream: each provider's model server has been asked.
      await until(
        () => openai.requests.length > 0 && anthropic.conversationRequests().length > 0,
        "both providers to call their model",
      );
      const providers = providerProcessesOf(apiPid);
      const commands = providers.map(commandOf);
      expect(commands.some((c) => /codex.* app-server/.test(c))).toBe(true);
      expect(commands.some((c) => /claude/.test(c))).toBe(true);

      api.child.kill("SIGKILL");
      await api.exited;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const left = providers.filter(alive);
      expect(left.map((pid) => `${pid} ${commandOf(pid)}`)).toEqual([]);
    }, 90_000);

    it("the start-up sweep ends processes a dead API of the same data dir left behind, and no others", async () => {
      const dataDir = dir("skein-sweep-");
      const mark = (ownerPid: number, start: string) =>
        `${dataDirKey(dataDir)}:${ownerPid}:${start}`;
      const stray = (ownerMark: string): ChildProcess => {
        const child = spawnProcess("sleep", ["300"], {
          env: { ...process.env, [OWNER_VARIABLE]: ownerMark },
          stdio: "ignore",
        });
        cleanups.push(() => child.kill("SIGKILL"));
        return child;
      };
      // Owned by an API process that is gone (a pid that cannot exist), and by this live test
      // process (a live owner, as another instance on the same data dir would be).
      const orphan = stray(mark(2 ** 22 + 1, "1"));
      const liveOwner = stray(mark(process.pid, processStartTime(process.pid) ?? "0"));
      const otherDataDir = stray(`${dataDirKey(dir("skein-sweep-other-"))}:${2 ** 22 + 1}:1`);
      await until(() => [orphan, liveOwner, otherDataDir].every((c) => alive(c.pid!)), "strays");

      const api = startApi({ SKEIN_DATA_DIR: dataDir });
      await api.ready;
      await until(() => !alive(orphan.pid!), "the orphan to be ended", 5_000);
      expect(alive(liveOwner.pid!)).toBe(true);
      expect(alive(otherDataDir.pid!)).toBe(true);
    }, 60_000);
  },
);
