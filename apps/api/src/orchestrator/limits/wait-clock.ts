/**
 * When something is due, as the usage-limit waits ask it: the real clock arms a timer, a test
 * clock fires what is due when the test moves its time (no wall-clock sleeps in tests).
 */
export type WaitClock = {
  now(): Date;
  /** Calls `fire` once `when` has come; the function returned cancels it. */
  at(when: Date, fire: () => void): () => void;
};

/** setTimeout's longest delay; a later time is reached in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export const realWaitClock: WaitClock = {
  now: () => new Date(),
  at(when, fire) {
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      const left = when.getTime() - Date.now();
      timer = setTimeout(
        left > MAX_TIMER_MS ? arm : fire,
        Math.max(0, Math.min(left, MAX_TIMER_MS)),
      );
      // A wait never keeps the process alive on its own.
      timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
  },
};
