import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyPatchReply,
  functionCallOutputs,
  functionCallReply,
  responsesTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { pendingRequestOf } from "./support/subagent-children.ts";

// Issue 33 item 6: the fake model makes the real `codex app-server` ask what C4 maps (a
// file-change approval, a user-input question), and Skein records each as the SPEC names it,
// read back through the pending requests and the thread detail (P2, item 7). Codex 0.171 offers
// no `update_plan` tool to the models it knows here, so `turn/plan/updated` stays covered by the
// mapper's frame tests; Claude's TodoWrite makes a real todo list (claude-todo-list test).

const SLOW = 120_000;
/** Codex 0.171 asks the person questions outside Plan mode only with this feature on. */
const ASK = { default_mode_request_user_input: true };

describe("C4 on the real Codex app-server: native callbacks become E15 requests", () => {
  const harness = useCodexSkeinHarness();

  it(
    "C4/E15/B16: apply_patch asks item/fileChange/requestApproval: a file-change request showing the file's planned diff; accepted, the file is written and shown as a file_change item",
    async () => {
      const x = await harness();
      const patch = "*** Begin Patch\n*** Add File: added.txt\n+ADDED\n*** End Patch\n";
      x.server.enqueue(applyPatchReply(patch, "call_patch"), responsesTextReply("PATCHED"));
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const runId = await x.send(threadId, "add a file");
      const request = await pendingRequestOf(x, threadId);
      expect(request.kind).toBe("file-change");
      // B16: what is approved is shown before it is written: the file, and its lines as added.
      expect(request.detail).toMatch(/^@@ \/.*\/added\.txt @@\n\+ADDED$/);
      expect(existsSync(join(x.workspace, "added.txt"))).toBe(false);
      const detail = await createReadModels(x.store).detail(threadId);
      expect(detail.pendingRequests.map((r) => r.id)).toEqual([request.id]);

      await x.orchestrator.respondToRequest({ requestId: request.id, decision: "accept" });
      const ended = await x.waitForRunStatus(threadId, runId, ["completed", "failed"], 30_000);
      expect(ended.status).toBe("completed");
      expect(readFileSync(join(x.workspace, "added.txt"), "utf8")).toBe("ADDED\n");
      expect((await x.thread(threadId)).requests.get(request.id)?.status).toBe("resolved");
      const items = (await createReadModels(x.store).detail(threadId)).turnItems;
      expect(
        items.filter((i) => i.type === "file_change").map((i) => i.fileName.split("/").at(-1)),
      ).toContain("added.txt");
    },
    SLOW,
  );

  it(
    "C4/E17/P2: request_user_input is a user_input request plus a questions plan the thread detail lists; the answer reaches the model",
    async () => {
      const x = await harness({ features: ASK });
      x.server.enqueue(
        functionCallReply(
          "request_user_input",
          {
            questions: [
              {
                id: "color",
                header: "Color",
                question: "Which color?",
                options: [
                  { label: "Red", description: "warm" },
                  { label: "Blue", description: "cool" },
                ],
              },
            ],
          },
          "call_ask",
        ),
        responsesTextReply("ASKED"),
      );
      const threadId = await x.createThread({ runtimeMode: "full-access" });
      const runId = await x.send(threadId, "ask me");
      await pendingRequestOf(x, threadId);
      const reads = createReadModels(x.store);
      const [request] = (await reads.pendingRequests()).requests;
      expect(request).toMatchObject({ kind: "user_input", status: "pending", answerable: true });
      expect(request!.questions.map((q) => [q.question, q.options.map((o) => o.label)])).toEqual([
        ["Which color?", ["Red", "Blue"]],
      ]);
      // E17: the question is also a `questions` plan, listed in the thread detail (P2).
      const plans = (await reads.detail(threadId)).plans;
      expect(plans.filter((p) => p.kind === "questions")).toHaveLength(1);

      await x.orchestrator.respondToRequest({
        requestId: request!.id,
        decision: "accept",
        answers: { [request!.questions[0]!.id]: "Blue" },
      });
      const ended = await x.waitForRunStatus(threadId, runId, ["completed", "failed"], 30_000);
      expect(ended.status).toBe("completed");
      const outputs = functionCallOutputs(x.request(-1));
      expect(JSON.stringify(outputs)).toContain("Blue");
    },
    SLOW,
  );
});
