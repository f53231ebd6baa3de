/**
 * B10: a handoff is shown for review before it is sent, for every transfer kind (provider switch,
 * bring-back), unless the person turned that off: a preference of this browser's localStorage.
 */
const KEY = "skein.handoffReview.byDefault";

export function readReviewByDefault(): boolean {
  try {
    return window.localStorage.getItem(KEY) !== "off";
  } catch {
    // Storage disabled: the safe default, review first.
    return true;
  }
}

export function writeReviewByDefault(on: boolean): void {
  try {
    if (on) window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, "off");
  } catch {
    // Only this page remembers it, which is all storage would have added.
  }
}
