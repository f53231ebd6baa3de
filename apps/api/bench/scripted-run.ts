import type { SeedRunContent } from "../test/support/history-seed.ts";

/** Characters per reply delta: a model streams its reply a token or so at a time. */
const REPLY_DELTA_CHARS = 5;

// Prose from a few hundred words picked at random (seeded): about as compressible as a real
// reply, where text made of one repeated sentence would flatter every compressed figure.
const WORDS = (
  "the a an and or but if then when while because so that this these those it its we you they " +
  "change test file module function type value error reader writer stream thread run item event " +
  "store index cache query window cursor snapshot fold state row table column key id sequence " +
  "version commit branch merge fork handoff provider model turn reply command output exit code " +
  "path folder workspace config option setting flag limit bound retry timeout signal abort close " +
  "open read write append delete update create rename move copy keep drop skip load save parse " +
  "render paint scroll frame layout style button dialog panel list page link view header footer " +
  "fast slow small large short long early late first last next previous same other new old " +
  "now here there again still already only just also even more less most least each every some " +
  "checks passes fails returns throws waits calls sends gets sets adds removes finds uses needs " +
  "makes takes gives shows hides moves starts stops ends begins holds reads writes folds keeps " +
  "correct wrong missing stale fresh empty full partial whole broken fixed safe unsafe clear " +
  "server client browser database process memory disk network socket request response header " +
  "because otherwise instead although unless until since after before during between within"
).split(" ");

/** A small seeded generator (mulberry32): the same words for the same run every time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function prose(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) {
    const word = WORDS[Math.floor(next() * WORDS.length)] ?? "the";
    out.push(i % 12 === 11 ? `${word}.` : word);
  }
  return `${out.join(" ")} `;
}

/**
 * One run as the runtimes report it: a test command whose output streams line by line (20
 * lines), then a reply of about 700 characters streamed a few characters per delta.
 */
export function scriptedRunContent(n: number): SeedRunContent {
  const next = random(n);
  const reply = prose(next, 110);
  return {
    tools: [
      {
        command: `pnpm vitest run test/${WORDS[n % WORDS.length]}-${n}.test.ts`,
        output: Array.from(
          { length: 20 },
          (_, i) =>
            `✓ src/${WORDS[Math.floor(next() * WORDS.length)]}-${i}.test.ts (${Math.floor(next() * 900)} ms)\n`,
        ),
        exitCode: 0,
      },
    ],
    reply: Array.from({ length: Math.ceil(reply.length / REPLY_DELTA_CHARS) }, (_, i) =>
      reply.slice(i * REPLY_DELTA_CHARS, (i + 1) * REPLY_DELTA_CHARS),
    ),
  };
}
