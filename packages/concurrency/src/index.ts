export { KeyedQueue } from "./keyed-queue.ts";
export { Slots } from "./slots.ts";
