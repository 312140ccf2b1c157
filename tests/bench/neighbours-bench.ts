/**
 * `pnpm bench neighbours` (issue 9): core's NeighbourIndex over the listing corpus, at 1x and at N times it
 * (`--copies N`, default 10: scale-corpus.ts's copies, fresh ids and one made-up word per copy). Each paper's
 * topics are the shipped engine's (with ancestors) at 1x; a copy keeps its original's. Prints per size the
 * build time, the memory (the growth of the heap and ArrayBuffers after a collection, and the index's own count of its arrays and
 * strings: the copies share their titles with the corpus, so the heap's growth leaves those out), and
 * `nearest` calls per second (CPU) over evenly spaced papers; at 1x also recall@15 against the exact scan
 * (tests/eval/neighbourhood.ts's ExactNeighbours, every word of every paper) and how far the neighbourhood's
 * topic shares move. `--posting-terms T --query-terms Q --candidates C` try other pruning.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  defaultTaxonomy,
  NeighbourIndexBuilder,
  type NeighbourIndex,
  type NeighbourIndexOptions,
  type NeighbourSource,
  type TaggablePaper,
} from '@quire/core';
import { requireSharedData } from '../src/paths.ts';
import { loadCorpus } from '../src/replay/corpus.ts';
import type { CorpusPaper } from '../src/replay/corpus.ts';
import { ExactNeighbours, shippedTags } from '../eval/neighbourhood.ts';
import { copyId, corpusCopy } from './scale-corpus.ts';

const K = 15;
const RECALL_PAPERS = 500;
const WARM_UP = 500;

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapUsed(): number {
  collect();
  collect();
  // Typed arrays' contents live outside the JS heap, in ArrayBuffers.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** `count` indices spread evenly over 0..n-1: every run and every size asks the same papers. */
function spaced(n: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(n, count); i++) out.push(Math.floor(((i + 0.5) * n) / Math.min(n, count)));
  return out;
}

function* sources(
  papers: readonly CorpusPaper[],
  topics: readonly string[][],
  copies: number,
): Generator<NeighbourSource> {
  for (let copy = 0; copy < copies; copy++) {
    let i = 0;
    for (const p of corpusCopy(papers, copy))
      yield { id: p.id, title: p.title, abstract: p.abstract, topics: topics[i++] ?? [] };
  }
}

/** The index alone: the builder (each paper's words, for the idf) is garbage once this returns. */
function built(papers: Iterable<NeighbourSource>, options: NeighbourIndexOptions): NeighbourIndex {
  const builder = new NeighbourIndexBuilder(options);
  builder.add(papers);
  return builder.build();
}

interface SizeFigures {
  papers: number;
  buildMs: number;
  heapMiB: number;
  ownMiB: number;
  nearestPerSec: number;
  nearestUs: number;
}

function measure(
  papers: readonly CorpusPaper[],
  topics: readonly string[][],
  copies: number,
  options: NeighbourIndexOptions,
  queries: number,
): { index: NeighbourIndex; figures: SizeFigures } {
  const before = heapUsed();
  const t0 = performance.now();
  const index = built(sources(papers, topics, copies), options);
  const buildMs = performance.now() - t0;
  const heapMiB = (heapUsed() - before) / 2 ** 20;
  const own = index.footprint();
  // Each id and title: its characters (one byte each, Latin-1), a 16-byte header, an 8-byte array slot.
  const ownBytes = own.arrayBytes + own.stringChars + 24 * 2 * own.papers;
  const ownMiB = ownBytes / 2 ** 20;
  const asked = spaced(index.size, queries).map((i) => {
    const p = papers[i % papers.length]!;
    return {
      id: copyId(papers, Math.floor(i / papers.length), i % papers.length),
      title: p.title,
      abstract: p.abstract,
    };
  });
  for (const p of asked.slice(0, WARM_UP)) index.nearest(p, K);
  const cpu = process.cpuUsage();
  let found = 0;
  for (const p of asked) found += index.nearest(p, K).length;
  const used = process.cpuUsage(cpu);
  const cpuSec = (used.user + used.system) / 1e6;
  const figures = {
    papers: index.size,
    buildMs,
    heapMiB,
    ownMiB,
    nearestPerSec: asked.length / cpuSec,
    nearestUs: (cpuSec / asked.length) * 1e6,
  };
  console.log(
    `${index.size} papers (${copies}x): built in ${buildMs.toFixed(0)} ms; heap +${heapMiB.toFixed(1)} MiB, ` +
      `own count ${ownMiB.toFixed(1)} MiB (${own.words} words, ${own.postings} postings); ` +
      `${asked.length} nearest in ${cpuSec.toFixed(2)} s CPU: ${figures.nearestPerSec.toFixed(0)}/s, ` +
      `${figures.nearestUs.toFixed(1)} µs each, ${(found / asked.length).toFixed(1)} found on average ` +
      `(load ${loadavg()[0]!.toFixed(2)})`,
  );
  return { index, figures };
}

/** Recall@K of the index against the exact scan, and the mean largest move of a topic's share. */
function recallAt1x(index: NeighbourIndex, papers: readonly TaggablePaper[], topics: readonly string[][]) {
  const t0 = performance.now();
  const exact = new ExactNeighbours(papers);
  const exactBuildMs = performance.now() - t0;
  const position = new Map(papers.map((p, i) => [p.id, i]));
  const shares = (near: { id: string; sim: number }[]) => {
    const total = near.reduce((s, n) => s + n.sim, 0);
    const out = new Map<string, number>();
    for (const n of near)
      for (const slug of topics[position.get(n.id) ?? -1] ?? [])
        out.set(slug, (out.get(slug) ?? 0) + n.sim / Math.max(total, 1e-9));
    return out;
  };
  let hits = 0;
  let wanted = 0;
  let shareMove = 0;
  let simRatio = 0;
  const sample = spaced(papers.length, RECALL_PAPERS);
  for (const i of sample) {
    const paper = papers[i]!;
    const truth = exact.nearest(paper.id, K);
    const got = index.nearest(paper, K);
    const truthIds = new Set(truth.map((n) => n.id));
    hits += got.filter((n) => truthIds.has(n.id)).length;
    wanted += truth.length;
    const a = shares(truth);
    const b = shares(got);
    let most = 0;
    for (const slug of new Set([...a.keys(), ...b.keys()]))
      most = Math.max(most, Math.abs((a.get(slug) ?? 0) - (b.get(slug) ?? 0)));
    shareMove += most;
    const exactTop = truth[0]?.sim ?? 0;
    simRatio += exactTop > 0 ? (got[0]?.sim ?? 0) / exactTop : 1;
  }
  const recall = hits / Math.max(1, wanted);
  console.log(
    `recall@${K} against the exact scan (built in ${exactBuildMs.toFixed(0)} ms) on ${sample.length} papers: ` +
      `${recall.toFixed(3)}; mean largest share move ${(shareMove / sample.length).toFixed(3)}; ` +
      `first neighbour's sim ÷ exact ${(simRatio / sample.length).toFixed(3)}`,
  );
  return { recall, shareMove: shareMove / sample.length };
}

export async function runNeighboursBench(args: string[]): Promise<Record<string, unknown>> {
  requireSharedData();
  const { values } = parseArgs({
    args,
    options: {
      copies: { type: 'string', default: '10' },
      'posting-terms': { type: 'string' },
      'query-terms': { type: 'string' },
      candidates: { type: 'string' },
      queries: { type: 'string', default: '20000' },
    },
  });
  const copies = Number(values.copies);
  const queries = Number(values.queries);
  const options: NeighbourIndexOptions = {
    ...(values['posting-terms'] ? { postingTerms: Number(values['posting-terms']) } : {}),
    ...(values['query-terms'] ? { queryTerms: Number(values['query-terms']) } : {}),
    ...(values.candidates ? { candidates: Number(values.candidates) } : {}),
  };
  const corpus = await loadCorpus();
  const taggable: TaggablePaper[] = corpus.map((p) => ({
    id: p.id,
    title: p.title,
    abstract: p.abstract,
    categories: p.categories,
  }));
  const topics = shippedTags(defaultTaxonomy(), taggable).map((s) => [...s]);
  console.log(
    `options ${JSON.stringify(options)}, k = ${K}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const one = measure(corpus, topics, 1, options, queries);
  const quality = recallAt1x(one.index, taggable, topics);
  const out: Record<string, unknown> = { options, k: K, x1: one.figures, ...quality };
  if (copies > 1) out[`x${copies}`] = measure(corpus, topics, copies, options, queries).figures;
  return out;
}
