import { execFileSync } from "node:child_process";
import {
  anthropicBashReply,
  anthropicTextReply,
  anthropicUserTexts,
  conversationText,
  execCommandReply,
  responsesTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useCleanups } from "./support/cleanups.ts";
import { createGitHubRepo, gitHubSettings } from "./support/github-thread.ts";
import {
  type RealProvidersServer,
  startRealProvidersServer,
} from "./support/real-providers-server.ts";
import { until } from "./support/until.ts";

const { cleanups } = useCleanups();
const SLOW = 180_000;

const HUNK = "@@ -0,0 +1 @@\n+export const hi = 1;";

/** The model's side of one provider: a shell command, then a closing sentence. */
type Model = {
  command(t: RealProvidersServer, command: string, done: string): void;
  /** Every user text the runtime sent its model so far. */
  userTexts(t: RealProvidersServer): string[];
};

const MODELS: Record<"codex" | "claude", Model> = {
  codex: {
    command: (t, command, done) =>
      t.openai.enqueue(execCommandReply(command), responsesTextReply(done)),
    userTexts: (t) => t.openai.requests.map((r) => conversationText(r)),
  },
  claude: {
    command: (t, command, done) =>
      t.anthropic.enqueue(anthropicBashReply(command), anthropicTextReply(done)),
    userTexts: (t) => t.anthropic.conversationRequests().flatMap((r) => anthropicUserTexts(r)),
  },
};

async function runToEnd(t: RealProvidersServer, threadId: string, runId: string) {
  const detail = await until(
    () => t.client.thread.detail.query({ threadId }),
    (d) =>
      ["completed", "failed", "interrupted"].includes(
        d.runs.find((r) => r.id === runId)?.status ?? "",
      ),
    SLOW,
  );
  expect(detail.runs.find((r) => r.id === runId)?.status).toBe("completed");
}

describe("B17: review feedback reaches the real runtimes and their fix lands on the PR", () => {
  for (const provider of ["codex", "claude"] as const) {
    it(
      `B17: a review comment reaches real ${provider} with file, line and hunk; its fix is committed and pushed to the same PR`,
      async () => {
        const remote = await createGitHubRepo();
        cleanups.push(() => remote.close());
        const t = await startRealProvidersServer({ github: gitHubSettings(remote) });
        cleanups.push(() => t.close());
        const model = MODELS[provider];
        const { projectId } = await t.client.project.create.mutate({
          name: "Widgets",
          workspaceRoot: remote.ws,
        });
        const { threadId } = await t.client.thread.create.mutate({
          projectId,
          title: "Greet",
          provider,
          runtimeMode: "full-access",
        });

        model.command(t, "printf 'export const hi = 1;\\n' > hello.ts", "Added hello.ts.");
        const first = await t.client.thread.sendMessage.mutate({
          threadId,
          text: "add a greeting constant",
        });
        await runToEnd(t, threadId, first.runId);
        const commit = await t.client.git.commit.mutate({ threadId });
        expect(commit.files).toEqual(["hello.ts"]);
        await t.client.git.push.mutate({ threadId });
        // The thread works in its own worktree (the default in a git project), on its own branch.
        const pr = await t.client.pr.open.mutate({ threadId });
        expect(pr).toMatchObject({ number: 1, head: `skein/${threadId}`, created: true });

        remote.fake.addReviewComment("acme/widgets", {
          pullNumber: 1,
          path: "hello.ts",
          line: 1,
          diffHunk: HUNK,
          body: "call it greeting",
          user: "reviewer",
        });
        expect((await t.client.pr.sync.mutate({ threadId })).recorded).toBeGreaterThan(0);
        model.command(t, "sed -i 's/hi/greeting/' hello.ts", "Renamed it to greeting.");
        const sent = await t.client.pr.sendFeedback.mutate({ threadId });
        expect(sent.runIds).toHaveLength(1);
        await runToEnd(t, threadId, sent.runIds[0]!);

        // What the runtime gave its model: the comment with its file, line and hunk.
        const asked = model.userTexts(t).join("\n");
        expect(asked).toContain("hello.ts:1 — reviewer wrote:");
        expect(asked).toContain("call it greeting");
        expect(asked).toContain("+export const hi = 1;");

        const fix = await t.client.git.commit.mutate({ threadId });
        expect(fix.files).toEqual(["hello.ts"]);
        await t.client.git.push.mutate({ threadId });
        const onRemote = execFileSync("git", ["show", `${pr.head}:hello.ts`], {
          cwd: remote.bare,
          encoding: "utf8",
        });
        expect(onRemote).toBe("export const greeting = 1;\n");
        await t.client.pr.sync.mutate({ threadId });
        const detail = await t.client.thread.detail.query({ threadId });
        expect(detail.thread.pullRequest).toMatchObject({ number: 1, headSha: fix.sha });
        expect(remote.fake.pulls("acme/widgets")).toHaveLength(1);
      },
      SLOW * 3,
    );
  }
});
