import { describe, expect, it } from "vitest";
import { responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text, threadIdOf } from "./support/ui.ts";
import { sendAndSeeReplies, answeredCodexThread } from "./support/threads.ts";

/**
 * B16 in the browser (issue 29 item 3): forks made through the typed client and from the page
 * get titles from the domain that tell them apart, and a fork's runs are numbered on from the
 * runs it inherited, in its run headers and in the titles of its own forks.
 */
describe.runIf(chromiumAvailable)("fork titles (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B16: API-made and page-made forks carry distinct titles saying where they came from; one run numbering", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await answeredCodexThread(
      e2e,
      { project: "Titles", title: "Daily report" },
      { message: "first question", answer: "FIRST-ANSWER" },
    );

    // Two forks through the typed client, no titles given, then one from the page.
    const one = await client.thread.fork.mutate({ threadId });
    const two = await client.thread.fork.mutate({ threadId });
    await page.getByRole("button", { name: "Fork latest" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(threadId));
    const fromPage = threadIdOf(page);
    const titles = await Promise.all(
      [one.threadId, two.threadId, fromPage].map(
        async (id) => (await client.thread.detail.query({ threadId: id })).thread.title,
      ),
    );
    expect(titles).toEqual([
      "fork of Daily report at run 1",
      "fork of Daily report at run 1 (2)",
      "fork of Daily report at run 1 (3)",
    ]);
    await expect
      .poll(() => text(page.locator(".thread-title")))
      .toBe("fork of Daily report at run 1 (3)");
    // Under their source in the sidebar, each reads short and still apart from its siblings.
    const rowLabel = (id: string) =>
      text(page.locator(`.sidebar .thread-row[data-thread-id="${id}"]`));
    await expect.poll(() => rowLabel(one.threadId)).toContain("fork at run 1");
    await expect.poll(() => rowLabel(two.threadId)).toContain("fork at run 1 (2)");
    await expect.poll(() => rowLabel(fromPage)).toContain("fork at run 1 (3)");
    await saveScreenshot(page, "fork-titles-sidebar");

    // The fork's own first run is run 2 as a person counts (run 1 was inherited) …
    stack.providers.openai.enqueue(responsesTextReply("FORK-ANSWER"));
    await sendAndSeeReplies(page, "fork question", ["FIRST-ANSWER", "FORK-ANSWER"]);
    const labels = await page.locator(".run-header .run-label").allInnerTexts();
    expect(labels).toEqual(["Run 1", "Run 2"]);
    // … and a fork of it made there is titled with that same number.
    await page.getByRole("button", { name: "Fork latest" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(fromPage));
    await expect
      .poll(() => text(page.locator(".thread-title")))
      .toBe("fork of fork of Daily report at run 1 (3) at run 2");
    await saveScreenshot(page, "fork-titles-nested");
  });
});
