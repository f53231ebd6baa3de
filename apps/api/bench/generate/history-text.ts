import type { SeededRandom } from "./seeded-random.ts";

const WORDS = (
  "the a build test failing passes module config server client thread run fork branch merge " +
  "review diff patch commit schema index query cache latency memory error retry timeout socket " +
  "stream event sequence window page cursor project workspace file function type import export " +
  "refactor rename extract inline split join parse render layout sidebar button dialog token " +
  "auth session provider model prompt reply tool output command shell install lint format " +
  "benchmark profile trace span metric log warning debug release deploy rollback migrate " +
  "postgres sqlite transaction lock batch append snapshot projection reader writer queue"
).split(" ");

const COMMANDS = [
  "pnpm test",
  "pnpm exec vitest run test/api.int.test.ts",
  "git status --short",
  "git log --oneline -20",
  "rg -n 'readStream' packages",
  "ls -la src",
  "cat package.json",
  "pnpm typecheck",
  "node scripts/build.mjs",
  "sed -n 1,200p src/server.ts",
];

/**
 * Deterministic filler for generated histories: prose for messages and replies, and log-like
 * lines for tool output. Output lines come from a fixed pool so long outputs cost little to make.
 */
export class HistoryText {
  private readonly lines: string[] = [];

  constructor(private readonly random: SeededRandom) {
    for (let i = 0; i < 2_048; i += 1) {
      const kind = random.pick(["PASS", "ok", "info", "warn", "  at", "src/"]);
      this.lines.push(`${kind} ${this.words(random.int(6, 18))} (${random.int(1, 9_999)} ms)\n`);
    }
  }

  words(count: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i += 1) out.push(this.random.pick(WORDS));
    return out.join(" ");
  }

  title(index: number): string {
    // A few titles share a phrase, as searches for an old conversation would use.
    if (index % 997 === 0) return `Quarterly report ${index}`;
    const words = this.words(this.random.int(2, 6));
    return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${index}`;
  }

  command(): string {
    return this.random.pick(COMMANDS);
  }

  /** About `bytes` of log output, cut into deltas of at most `chunk` characters. */
  output(bytes: number, chunk: number): string[] {
    const deltas: string[] = [];
    let current = "";
    let total = 0;
    while (total < bytes) {
      const line = this.random.pick(this.lines);
      current += line;
      total += line.length;
      if (current.length >= chunk) {
        deltas.push(current);
        current = "";
      }
    }
    if (current !== "") deltas.push(current);
    return deltas;
  }
}
