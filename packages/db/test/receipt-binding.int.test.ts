import { expect, it } from "vitest";
import { ReceiptConflictError } from "../src/index.ts";
import { inc } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

const bound = (procedure: string, payloadHash: string) => ({ procedure, payloadHash });

describeStores("B3 receipts bound to procedure and payload", (stores) => {
  it("B3: a retry with the same procedure and payload replays; another procedure or payload is a conflict naming the first", async () => {
    const store = await stores.fresh();
    const first = await store.append("c", 0, [inc(1)], {
      commandId: "cmd_1",
      receipt: { runId: "run_1" },
      binding: bound("thread.sendMessage", "h1"),
    });
    const replay = await store.append("c", "any", [inc(5)], {
      commandId: "cmd_1",
      receipt: "ignored",
      binding: bound("thread.sendMessage", "h1"),
    });
    expect(replay).toEqual({ ...first, duplicate: true });
    const otherPayload = store.append("c", "any", [inc(5)], {
      commandId: "cmd_1",
      binding: bound("thread.sendMessage", "h2"),
    });
    await expect(otherPayload).rejects.toBeInstanceOf(ReceiptConflictError);
    await expect(otherPayload).rejects.toThrow(/thread\.sendMessage with a different payload/);
    const otherProcedure = store.append("d", "any", [inc(5)], {
      commandId: "cmd_1",
      binding: bound("project.create", "h1"),
    });
    await expect(otherProcedure).rejects.toMatchObject({
      name: "ReceiptConflictError",
      procedure: "thread.sendMessage",
    });
    expect(await store.headSequence()).toBe(1);
    expect(await store.findReceipt("cmd_1")).toMatchObject({
      procedure: "thread.sendMessage",
      payloadHash: "h1",
    });
  });

  it("B3: conflicting duplicates inside one group-commit batch append once and refuse the rest", async () => {
    const store = await stores.fresh();
    const results = await Promise.allSettled([
      store.append("c", "any", [inc(1)], { commandId: "x", binding: bound("a", "1") }),
      store.append("c", "any", [inc(1)], { commandId: "x", binding: bound("a", "1") }),
      store.append("c", "any", [inc(1)], { commandId: "x", binding: bound("b", "1") }),
      store.append("c", "any", [inc(1)], { commandId: "x", binding: bound("a", "2") }),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "rejected",
    ]);
    expect(await store.headSequence()).toBe(1);
  });

  it("B3: an unbound receipt (stored before binding) replays for any binding", async () => {
    const store = await stores.fresh();
    await store.append("c", 0, [inc(1)], { commandId: "old", receipt: 1 });
    const again = await store.append("c", "any", [inc(1)], {
      commandId: "old",
      binding: bound("x", "y"),
    });
    expect(again.duplicate).toBe(true);
  });

  it("B3: an intent is recorded once, survives a reopen, and goes with the receipt of its command", async () => {
    const location = stores.location();
    const first = await stores.open(location);
    const intent = { commandId: "cmd_i", ...bound("thread.rollback", "h"), data: { ref: "r1" } };
    expect(await first.recordIntent(intent)).toBe(true);
    expect(await first.recordIntent({ ...intent, data: { ref: "other" } })).toBe(false);
    await first.recordIntent({ commandId: "cmd_j", ...bound("thread.fork", "k"), data: null });
    await first.close();
    const store = await stores.open(location);
    expect(await store.findIntent("cmd_i")).toMatchObject({
      ...intent,
      createdAt: expect.any(String),
    });
    expect((await store.listIntents()).map((i) => i.commandId).sort()).toEqual(["cmd_i", "cmd_j"]);
    await store.append("c", 0, [inc(1)], {
      commandId: "cmd_i",
      binding: bound("thread.rollback", "h"),
    });
    expect(await store.findIntent("cmd_i")).toBeNull();
    await store.clearIntent("cmd_j");
    expect(await store.listIntents()).toEqual([]);
  });
});
