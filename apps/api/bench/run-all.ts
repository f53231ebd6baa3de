// `pnpm --filter @skein/api bench [names…]`: runs every bench (or the named ones) one after
// another, each in its own process, and goes on past one that crashes so the others' rows are
// still measured; the exit code says whether any crashed (bench/collect.ts then writes its rows
// as failed). Rows below target are reported, never a failure here.
import { BENCHES, runBench } from "./benches.ts";

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHES.some((bench) => bench.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown bench ${unknown.join(", ")}; the benches are ${BENCHES.map((b) => b.name).join(", ")}`,
  );
  process.exit(2);
}
const crashed: string[] = [];
for (const bench of BENCHES) {
  if (wanted.length > 0 && !wanted.includes(bench.name)) continue;
  console.log(`\n[bench] ${bench.name}`);
  const started = performance.now();
  const outcome = await runBench(bench);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (outcome.code === 0) console.log(`[bench] ${bench.name} done in ${seconds} s`);
  else {
    crashed.push(bench.name);
    console.error(`[bench] ${bench.name} CRASHED (${outcome.signal ?? `exit ${outcome.code}`})`);
  }
}
if (crashed.length > 0) {
  console.error(`\n[bench] crashed: ${crashed.join(", ")}`);
  process.exitCode = 1;
}
