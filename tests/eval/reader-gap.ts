/**
 * The reader gap: `pnpm eval reader-gap [POOL_JSONL WIDE_JSONL SLICE_JSON]` (or `tsx tests/eval/reader-gap.ts
 * …`). The same 60 (paper, topic) pairs of reader-gap-sample.ts, judged once by pool-mode readers (many papers
 * for one topic) and once by wide-mode readers (one paper against all its candidate topics), under the same
 * criteria: how often each mode judges the topic in, the paired difference (pool − wide) with Newcombe's
 * interval for paired proportions, the discordant pairs each way with an exact McNemar p, per topic, and the two
 * modes' agreement and Cohen's kappa. Development data: EVAL_VERBOSE=1 lists the discordant pairs with both
 * readers' reasons. Without arguments it reads tests/eval/reader-gap-{pool.jsonl,wide.jsonl,slice.json}.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatInterval, wilson } from './interval.ts';
import { consensus, kappa, type LockedJudgment } from './locked-eval.ts';
import { exactMcNemar, newcombePairedDifference, pairedTable } from './paired-proportions.ts';

const here = dirname(fileURLToPath(import.meta.url));
const round3 = (n: number) => (Number.isFinite(n) ? Number(n.toFixed(3)) : null);

function readJudgments(file: string): LockedJudgment[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (!line.trim()) return [];
      try {
        return [JSON.parse(line) as LockedJudgment];
      } catch {
        throw new Error(`${file} line ${i + 1} is not valid JSON; fix the line and run again.`);
      }
    });
}

function readSlice(file: string): { paper: string; topic: string }[] {
  const { pairs } = JSON.parse(readFileSync(file, 'utf8')) as { pairs?: { paper: string; topic: string }[] };
  if (!Array.isArray(pairs))
    throw new Error(`${file} has no "pairs" list: give the slice.json reader-gap-sample.ts wrote.`);
  return pairs;
}

export function runReaderGap(args = process.argv.slice(3)): Promise<Record<string, unknown>> {
  const [poolFile, wideFile, sliceFile] = [
    args[0] ?? join(here, 'reader-gap-pool.jsonl'),
    args[1] ?? join(here, 'reader-gap-wide.jsonl'),
    args[2] ?? join(here, 'reader-gap-slice.json'),
  ].map((f) => resolve(f)) as [string, string, string];
  for (const file of [poolFile, wideFile, sliceFile])
    if (!existsSync(file))
      throw new Error(
        `${file} does not exist: give the pool judgments, the wide judgments and the slice.json of reader-gap-sample.ts, in that order.`,
      );
  const slice = readSlice(sliceFile);
  const poolJudgments = readJudgments(poolFile);
  const wideJudgments = readJudgments(wideFile);
  // One label per pair and mode: the majority where several readers judged it, a tie out.
  const pool = consensus(poolJudgments);
  const wide = consensus(wideJudgments);
  const why = (list: readonly LockedJudgment[]) =>
    new Map(list.map((j) => [`${j.paper} ${j.topic}`, j.why ?? '']));
  const borderline = (list: readonly LockedJudgment[]) =>
    new Set(list.filter((j) => j.borderline).map((j) => `${j.paper} ${j.topic}`));

  const keyOf = (p: { paper: string; topic: string }) => `${p.paper} ${p.topic}`;
  const missing = slice.filter((p) => !pool.has(keyOf(p)) || !wide.has(keyOf(p)));
  if (missing.length)
    console.log(
      `${missing.length} of ${slice.length} pairs lack a label in one mode and are left out: ` +
        missing
          .map(
            (p) => `${keyOf(p)}${pool.has(keyOf(p)) ? '' : ' (pool)'}${wide.has(keyOf(p)) ? '' : ' (wide)'}`,
          )
          .join(', '),
    );
  const pairs = slice.filter((p) => !missing.includes(p));
  const inPool = pairs.map((p) => pool.get(keyOf(p)) === true);
  const inWide = pairs.map((p) => wide.get(keyOf(p)) === true);
  const table = pairedTable(inPool, inWide);
  const n = pairs.length;
  const poolShare = wilson(table.both + table.firstOnly, n);
  const wideShare = wilson(table.both + table.secondOnly, n);
  const difference = newcombePairedDifference(table);
  const p = exactMcNemar(table.firstOnly, table.secondOnly);
  const agree = wilson(table.both + table.neither, n);
  const k = kappa(inPool, inWide);
  const poolBorderline = borderline(poolJudgments);
  const wideBorderline = borderline(wideJudgments);

  console.log(`Reader gap: ${n} (paper, pool topic) pairs judged in both modes`);
  console.log(
    `  judged in, pool mode (one topic, many papers)       ${formatInterval(poolShare)}  (${table.both + table.firstOnly})`,
  );
  console.log(
    `  judged in, wide mode (one paper, all its candidates) ${formatInterval(wideShare)}  (${table.both + table.secondOnly})`,
  );
  console.log(
    `  pool − wide ${difference.diff.toFixed(3)} [${difference.low.toFixed(3)}, ${difference.high.toFixed(3)}] ` +
      `(95%, Newcombe's hybrid score interval for paired proportions)`,
  );
  console.log(
    `  discordant: in-pool/out-wide ${table.firstOnly}, out-pool/in-wide ${table.secondOnly}; exact McNemar p = ${p.toFixed(4)}`,
  );
  console.log(
    `  agreement ${formatInterval(agree)}, Cohen's kappa ${k.toFixed(2)}; borderline pool ${pairs.filter((q) => poolBorderline.has(keyOf(q))).length}, wide ${pairs.filter((q) => wideBorderline.has(keyOf(q))).length}`,
  );

  const topics = [...new Set(pairs.map((q) => q.topic))];
  const perTopic = topics.map((topic) => {
    const idx = pairs.flatMap((q, i) => (q.topic === topic ? [i] : []));
    const t = pairedTable(
      idx.map((i) => inPool[i] === true),
      idx.map((i) => inWide[i] === true),
    );
    return {
      topic,
      n: idx.length,
      pool: t.both + t.firstOnly,
      wide: t.both + t.secondOnly,
      poolOnly: t.firstOnly,
      wideOnly: t.secondOnly,
    };
  });
  console.log('  topic                                 n  in pool  in wide  pool only  wide only');
  for (const r of perTopic)
    console.log(
      `  ${r.topic.padEnd(36)} ${String(r.n).padStart(2)} ${String(r.pool).padStart(8)} ${String(r.wide).padStart(8)} ${String(r.poolOnly).padStart(10)} ${String(r.wideOnly).padStart(10)}`,
    );

  if (process.env.EVAL_VERBOSE === '1') {
    const poolWhy = why(poolJudgments);
    const wideWhy = why(wideJudgments);
    pairs.forEach((q, i) => {
      if (inPool[i] === inWide[i]) return;
      console.log(
        `  ${inPool[i] ? 'in-pool/out-wide' : 'out-pool/in-wide'} ${keyOf(q)}: pool "${poolWhy.get(keyOf(q))}"; wide "${wideWhy.get(keyOf(q))}"`,
      );
    });
  }

  return Promise.resolve({
    pairs: n,
    missing: missing.length,
    poolIn: round3(poolShare.p),
    wideIn: round3(wideShare.p),
    difference: round3(difference.diff),
    differenceLow: round3(difference.low),
    differenceHigh: round3(difference.high),
    differenceMethod: 'newcombe-paired-hybrid-score',
    inPoolOutWide: table.firstOnly,
    outPoolInWide: table.secondOnly,
    mcnemarP: round3(p),
    agreement: round3(agree.p),
    kappa: round3(k),
    perTopic,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const figures = await runReaderGap(process.argv.slice(2));
  console.log(JSON.stringify({ eval: 'reader-gap', ...figures }));
}
