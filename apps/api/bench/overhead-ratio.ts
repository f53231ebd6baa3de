/**
 * What something attached to the store costs the append path: the same workload with it and
 * without, alternating so drift hits both, best of `rounds` each; the ratio of the best rates.
 */
export async function overheadRatio(
  rate: (attached: boolean) => Promise<number>,
  rounds = 3,
): Promise<{ ratio: number; attached: number; plain: number }> {
  const plain: number[] = [];
  const attached: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    plain.push(await rate(false));
    attached.push(await rate(true));
  }
  const best = { attached: Math.max(...attached), plain: Math.max(...plain) };
  return { ratio: best.attached / best.plain, ...best };
}
