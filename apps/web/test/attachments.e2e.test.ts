import { describe, expect, it } from "vitest";
import { inputItems, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts, sendMessage } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

/** A real 1×1 PNG, as a screenshot tool would put it on the clipboard. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** E16 in the browser: an image pasted into the composer reaches Codex's model with its bytes. */
describe.runIf(chromiumAvailable)("attachments (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ timeoutMs: 60_000 });

  it("E16: an image pasted into the composer is uploaded, shown, and sent to the model as an input image", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Pictures",
      title: "Image thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(responsesTextReply("A SINGLE PIXEL"));
    await openThread(page, stack, threadId);

    // A paste carrying a file, as the browser fires it for a copied image.
    await page.getByLabel("Message").evaluate((box, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "pixel.png", { type: "image/png" }));
      box.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, PNG_BASE64);
    const chip = page.getByRole("list", { name: "Attachments" }).getByText("pixel.png");
    await chip.waitFor();
    await sendMessage(page, "what is in this image?");
    await expect.poll(() => assistantTexts(page), { timeout: 90_000 }).toContain("A SINGLE PIXEL");
    await saveScreenshot(page, "attachments-pasted-image");

    // The model request holds the pasted bytes as an image next to the text.
    const request = stack.providers.openai.requests.find((r) =>
      JSON.stringify(inputItems(r)).includes("what is in this image?"),
    );
    expect(request).toBeDefined();
    const sent = JSON.stringify(inputItems(request!));
    expect(sent).toContain("input_image");
    expect(sent).toContain(PNG_BASE64);
    // The conversation keeps the attachment on the user message.
    const detail = await client.thread.detail.query({ threadId });
    const message = detail.turnItems.find((item) => item.type === "user_message");
    expect(message).toMatchObject({ attachments: [{ name: "pixel.png", mimeType: "image/png" }] });
  });
});
