import { formatInterval, wilson } from './interval.ts';
import { kappa, type LockedJudgment } from './locked-eval.ts';

/**
 * Agreement between a sample's judges and a second reader who judged a slice of its papers again, blind
 * to the first labels: over the pairs both labelled, and over every pair either named (a topic one added
 * and the other never labelled counts as out for the other, as in the sample's own figures).
 */
export function printSecondReading(
  name: string,
  first: readonly LockedJudgment[],
  second: readonly LockedJudgment[],
): Record<string, unknown> {
  const papers = new Set(second.map((j) => j.paper));
  const a = new Map(first.filter((j) => papers.has(j.paper)).map((j) => [`${j.paper} ${j.topic}`, j.label]));
  const b = new Map(second.map((j) => [`${j.paper} ${j.topic}`, j.label]));
  const both = [...b.keys()].filter((k) => a.has(k));
  const union = [...new Set([...a.keys(), ...b.keys()])];
  const measure = (keys: readonly string[]) => {
    const x = keys.map((k) => a.get(k) === true);
    const y = keys.map((k) => b.get(k) === true);
    return { agree: wilson(x.filter((v, i) => v === y[i]).length, keys.length), kappa: kappa(x, y) };
  };
  const onBoth = measure(both);
  const onUnion = measure(union);
  console.log(
    `${name}, read again by a second judge (${papers.size} papers): on the ${both.length} pairs both labelled ` +
      `agreement ${formatInterval(onBoth.agree)}, Cohen's kappa ${onBoth.kappa.toFixed(2)}; on all ${union.length} ` +
      `pairs either named ${formatInterval(onUnion.agree)}, kappa ${onUnion.kappa.toFixed(2)}`,
  );
  return {
    papers: papers.size,
    pairsBoth: both.length,
    agreement: Number(onBoth.agree.p.toFixed(3)),
    kappa: Number(onBoth.kappa.toFixed(3)),
    pairsEither: union.length,
    agreementEither: Number(onUnion.agree.p.toFixed(3)),
    kappaEither: Number(onUnion.kappa.toFixed(3)),
  };
}
