import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { seriousA11yViolations } from "./support/axe.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { fanOutToCodexAndClaude, mainThreadReady } from "./support/fan-out.ts";
import { text } from "./support/ui.ts";
import { runsCompleted } from "./support/threads.ts";

/** Passes where codex.txt exists (the Codex fork made it), fails with exit 3 elsewhere. */
const CHECK = "test -f codex.txt && echo checks-ok || { echo missing codex.txt; exit 3; }";

/**
 * Issue 29 item 10 in the browser: a task fanned out to a Codex and a Claude fork (real runtimes,
 * fake models, real git worktrees) is decided on the Parallel page: the check command runs in
 * each worktree on request (one passes, one fails), the candidates' diffs of one file stand in
 * columns, and "Pick as winner" brings the Codex fork back and archives the Claude fork at once.
 */
describe.runIf(chromiumAvailable)("fan-out compare (Chromium, real API, Codex and Claude)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B9: fan out → run checks (one passes, one fails) → diffs side by side → pick the winner → the other fork archived", async () => {
    const { stack, page } = e2e;
    const workspace = stack.providers.workspace;
    const { client, threadId } = await mainThreadReady(stack, {
      project: "Compare",
      title: "Compare main",
    });

    const { rows, codex, claude } = await fanOutToCodexAndClaude(
      page,
      stack,
      threadId,
      "Compare main",
      { codexEffort: "high" },
    );
    const [CODEX, CLAUDE] = [codex.title, claude.title];
    const [codexRow, claudeRow] = [codex.row, claude.row];
    const [codexId, claudeId] = await Promise.all([
      codexRow.getAttribute("data-fork-id"),
      claudeRow.getAttribute("data-fork-id"),
    ]);

    // Model and effort per fork: the Codex fork ran at the effort its row asked for (and Codex's
    // model was sent it); the Claude fork at its provider's default.
    expect(await text(codexRow.locator(".fork-model"))).toMatch(/Codex · .*high effort/s);
    expect(await text(claudeRow.locator(".fork-model"))).toMatch(/Claude · .*default effort/s);
    expect(stack.providers.openai.requests.map((r) => r.reasoning)).toContainEqual({
      effort: "high",
    });

    // Checks run only on request: nothing has run yet.
    expect(await text(codexRow.locator(".fork-check-cell"))).toBe("not run");
    await page.getByLabel("Check command").fill(CHECK);
    await page.getByRole("button", { name: "Run checks" }).click();
    await expect
      .poll(() => text(codexRow.locator(".fork-check-verdict")), { timeout: 60_000 })
      .toBe("passed");
    expect(await text(claudeRow.locator(".fork-check-verdict"))).toBe("failed (exit 3)");
    // The output's tail is one click away.
    await claudeRow.getByText("Output", { exact: true }).click();
    expect(await text(claudeRow.locator(".fork-check-output"))).toContain("missing codex.txt");
    await codexRow.getByText("Output", { exact: true }).click();
    expect(await text(codexRow.locator(".fork-check-output"))).toContain("checks-ok");
    await saveScreenshot(page, "fan-out-compare-checks");

    // The candidates' diffs of README.md in columns, one per fork.
    await page.getByRole("button", { name: "Show diffs" }).click();
    await page.getByLabel("File to compare").selectOption("README.md");
    const column = (id: string | null) => page.locator(`.compare-column[data-fork-id='${id}']`);
    await expect
      .poll(() => text(column(codexId).locator(".compare-file[data-path='README.md']")), {
        timeout: 30_000,
      })
      .toContain("# codex");
    expect(await text(column(claudeId).locator(".compare-file[data-path='README.md']"))).toContain(
      "# claude",
    );
    // One file picked: the Codex fork's codex.txt is not in its column.
    expect(await column(codexId).locator(".compare-file").count()).toBe(1);
    await page.locator(".compare-columns").scrollIntoViewIfNeeded();
    await saveScreenshot(page, "fan-out-compare-diffs");
    // Issue 29 item 8 on this page, with checks and diffs open: nothing serious for axe.
    expect(await seriousA11yViolations(page, "fan-out-compare")).toEqual([]);
    await page.getByLabel("File to compare").selectOption("");
    await expect
      .poll(() => column(codexId).locator(".compare-file").count(), { timeout: 30_000 })
      .toBe(2);

    // Pick the winner: the Codex fork's files land here with its conversation, and the Claude
    // fork is archived, in one step.
    stack.providers.openai.enqueue(responsesTextReply("picked and checked"));
    await page.getByRole("button", { name: `Pick as winner: ${CODEX}`, exact: true }).click();
    const notice = page.locator(".pick-outcome");
    await expect
      .poll(() => text(notice), { timeout: 60_000 })
      .toContain(`Picked ${CODEX} as the winner: 2 files applied`);
    expect(await text(notice)).toContain(`Archived ${CLAUDE}.`);
    expect(readFileSync(path.join(workspace, "README.md"), "utf8")).toBe("# codex\n");
    expect(existsSync(path.join(workspace, "codex.txt"))).toBe(true);
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
    expect(await rows.first().getAttribute("data-fork-id")).toBe(codexId);
    const archived = await client.thread.shells.query({ archived: true });
    expect(archived.threads.map((t) => t.id)).toEqual([claudeId]);
    await saveScreenshot(page, "fan-out-compare-picked");
    await runsCompleted(client, threadId);

    // The check command is remembered for the project.
    await page.reload();
    await expect
      .poll(() => page.getByLabel("Check command").inputValue(), { timeout: 30_000 })
      .toBe(CHECK);
  }, 600_000);
});
