import type { ThreadId } from "@skein/domain";
import {
  anthropicMessages,
  anthropicTextReply,
  inputItems,
  responsesTextReply,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { AttachmentStore } from "../src/attachments/attachment-store.ts";
import { createReadModels } from "../src/read-models/index.ts";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import { type CodexSkeinHarness, createCodexSkeinHarness } from "./support/codex-skein-harness.ts";

// Real binaries, real store: generous per-test budget for a loaded 2-core machine.
const SLOW = 90_000;

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

let codex: CodexSkeinHarness | null = null;
let claude: ClaudeSkeinHarness | null = null;
afterEach(async () => {
  await codex?.close();
  await claude?.close();
  codex = null;
  claude = null;
});

describe("attachments through Skein (E16)", () => {
  it(
    "E16 Codex: an uploaded PNG reaches the model as an input image; a PDF is refused before any provider work",
    async () => {
      codex = await createCodexSkeinHarness();
      const x = codex;
      x.server.enqueue(responsesTextReply("I see a pixel"));
      const store = AttachmentStore.inDataDir(x.dataDir);
      const png = await store.put(PNG);
      const threadId = await x.createThread();
      const { runId } = await x.orchestrator.sendMessage({
        threadId,
        text: "what is in this image?",
        attachments: [{ ref: png.ref, name: "pixel.png" }],
      });
      await x.orchestrator.waitForRun(runId);

      const images = JSON.stringify(inputItems(x.server.requests[0] ?? { input: [] }));
      expect(images).toContain(PNG.toString("base64"));
      const detail = await createReadModels(x.store).detail(threadId);
      const message = detail.turnItems.find((i) => i.type === "user_message");
      expect(message).toMatchObject({
        attachments: [
          { name: "pixel.png", mimeType: "image/png", ref: png.ref, sizeBytes: PNG.length },
        ],
      });

      const pdf = await store.put(PDF);
      const head = await x.store.headSequence();
      await expect(
        x.orchestrator.sendMessage({
          threadId,
          text: "read this",
          attachments: [{ ref: pdf.ref, name: "doc.pdf" }],
        }),
      ).rejects.toMatchObject({ code: "capability_unsupported" });
      expect(await x.store.headSequence()).toBe(head);
      expect(x.server.requests).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "E16 Claude: an uploaded PNG and PDF reach the model as image and document blocks",
    async () => {
      claude = await createClaudeSkeinHarness();
      const x = claude;
      x.anthropic.enqueue(anthropicTextReply("I see a pixel and a document"));
      const store = AttachmentStore.inDataDir(x.dataDir);
      const png = await store.put(PNG);
      const pdf = await store.put(PDF);
      const threadId: ThreadId = await x.createThread();
      const { runId } = await x.orchestrator.sendMessage({
        threadId,
        text: "what are these?",
        attachments: [
          { ref: png.ref, name: "pixel.png" },
          { ref: pdf.ref, name: "doc.pdf" },
        ],
      });
      await x.orchestrator.waitForRun(runId);

      const request = x.claudeRequests()[0]!;
      const blocks = anthropicMessages(request).flatMap((m) => m.content);
      expect(blocks).toContainEqual(
        expect.objectContaining({
          type: "image",
          source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") },
        }),
      );
      expect(blocks).toContainEqual(
        expect.objectContaining({
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: PDF.toString("base64") },
        }),
      );
    },
    SLOW,
  );
});
