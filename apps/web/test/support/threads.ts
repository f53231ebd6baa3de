import { createSkeinClient } from "@skein/client";
import type { AppRouter, SkeinClient } from "@skein/contract";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { responsesTextReply } from "../../../../tooling/fake-models/src/index.ts";
import type { Stack } from "./stack.ts";
import { assistantTexts, sendMessage } from "./ui.ts";

type ProjectInput = Parameters<SkeinClient["project"]["create"]["mutate"]>[0];
type ThreadInput = Parameters<SkeinClient["thread"]["create"]["mutate"]>[0];

export type NewThreadOptions = Omit<ThreadInput, "projectId"> & {
  /** The project's name; it is created in the stack's fake-provider workspace. */
  project: string;
  /** Project settings (e.g. `{ threadWorkspace: "local" }`), absent when not given. */
  projectSettings?: ProjectInput["settings"];
};

export type NewThread = {
  client: SkeinClient;
  projectId: Awaited<ReturnType<SkeinClient["project"]["create"]["mutate"]>>["projectId"];
  threadId: Awaited<ReturnType<SkeinClient["thread"]["create"]["mutate"]>>["threadId"];
};

/**
 * The setup most browser tests share: a typed client on the stack's API, a project on the fake
 * providers' workspace and one thread in it, made through the API (not the page) so each test
 * drives the page only where the page is what it checks.
 */
export async function newThread(stack: Stack, options: NewThreadOptions): Promise<NewThread> {
  const { project, projectSettings, ...thread } = options;
  const client = createSkeinClient<AppRouter>({ url: stack.api.url });
  const { projectId } = await client.project.create.mutate({
    name: project,
    workspaceRoot: stack.providers.workspace,
    ...(projectSettings ? { settings: projectSettings } : {}),
  });
  const { threadId } = await client.thread.create.mutate({ projectId, ...thread });
  return { client, projectId, threadId };
}

/**
 * A Codex thread (see newThread) open on the page, after its first exchange: `message` sent from
 * the composer and real Codex's `answer` (the fake model's scripted reply) shown.
 */
export async function answeredCodexThread(
  e2e: { stack: Stack; page: Page },
  thread: { project: string; title: string },
  exchange: { message: string; answer: string },
): Promise<NewThread> {
  const made = await newThread(e2e.stack, { ...thread, provider: "codex" });
  e2e.stack.providers.openai.enqueue(responsesTextReply(exchange.answer));
  await openThread(e2e.page, e2e.stack, made.threadId);
  await sendAndSeeReplies(e2e.page, exchange.message, [exchange.answer]);
  return made;
}

/** Opens a thread's conversation page and waits until the conversation is drawn. */
export async function openThread(page: Page, stack: Stack, threadId: string): Promise<void> {
  await page.goto(`${stack.web.url}/threads/${threadId}`);
  await page.locator(".conversation").waitFor();
}

/**
 * Sends a message from the composer and waits until the page shows exactly `expected` as the
 * assistant's answers (all of the thread's, in order, not only this run's).
 */
export async function sendAndSeeReplies(
  page: Page,
  text: string,
  expected: string[],
  timeoutMs = 60_000,
): Promise<void> {
  await sendMessage(page, text);
  await expect.poll(() => assistantTexts(page), { timeout: timeoutMs }).toEqual(expected);
}

/**
 * Waits until the thread has runs (exactly `count` of them, when given) and every one of them
 * completed (runs sent through the API).
 */
export async function runsCompleted(
  client: SkeinClient,
  threadId: string,
  count?: number,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const { runs } = await client.thread.detail.query({ threadId: threadId as never });
        const counted = count === undefined ? runs.length > 0 : runs.length === count;
        return counted && runs.every((r) => r.status === "completed");
      },
      { timeout: 90_000 },
    )
    .toBe(true);
}
