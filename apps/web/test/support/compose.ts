import type { Page } from "playwright-core";

/**
 * Sends a message that may switch provider or bring a fork back: when the composer stops at
 * "review handoff before sending", confirms the handoff as shown (optionally edited first).
 */
export async function sendThroughReview(
  page: Page,
  text: string,
  options: { edit?: (generated: string) => string } = {},
): Promise<{ reviewed: string | null }> {
  await page.getByRole("button", { name: "Send", exact: true }).waitFor();
  const box = page.getByLabel("Message");
  await box.fill(text);
  await box.press("Enter");
  const review = page.getByRole("region", { name: "Review the handoff before sending" });
  const cleared = () =>
    page.evaluate(
      () =>
        (document.querySelector("textarea[aria-label=Message]") as HTMLTextAreaElement | null)
          ?.value === "",
    );
  for (;;) {
    if (await review.isVisible()) break;
    if (await cleared()) return { reviewed: null };
    await page.waitForTimeout(100);
  }
  const handoff = review.getByLabel("Handoff text to send");
  let reviewed = await handoff.inputValue();
  if (options.edit) {
    reviewed = options.edit(reviewed);
    await handoff.fill(reviewed);
  }
  await review.getByRole("button", { name: "Send with this handoff" }).click();
  await page.waitForFunction(
    () =>
      (document.querySelector("textarea[aria-label=Message]") as HTMLTextAreaElement | null)
        ?.value === "",
  );
  return { reviewed };
}
