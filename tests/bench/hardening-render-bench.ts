/**
 * The rendering section of `pnpm bench hardening` (issue 10, finding 6): the note and abstract renderers
 * on the inputs that took seconds when they were quadratic, at 1×, 10× and 100× a base size, with the cap
 * off so the growth is the parser's. Time should grow about tenfold per step. The last line is what a page
 * pays for the largest input with the cap on. Run in Node; a browser's figures differ, not their growth.
 */
import { richText } from '../../web/src/lib/format/latex-text.ts';
import { RENDER_LIMIT } from '../../web/src/lib/format/render-limit.ts';
import { parseMarkdown } from '../../web/src/lib/groups/markdown.ts';

const BASE_CHARS = Number(process.env.HARDENING_RENDER_BASE_CHARS ?? 10_000);
const SCALES = [1, 10, 100];

interface Case {
  key: string;
  label: string;
  unit: string;
  render: (source: string, limit?: number) => unknown;
}

const CASES: Case[] = [
  { key: 'markdownBrackets', label: "Markdown '['", unit: '[', render: parseMarkdown },
  { key: 'markdownEmphasis', label: "Markdown '*a '", unit: '*a ', render: parseMarkdown },
  { key: 'latexParens', label: "LaTeX '\\('", unit: '\\(', render: richText },
];

/** The fastest of a few runs, in ms: the least disturbed by the collector and the rest of the machine. */
function fastest(run: () => unknown, times = 5): number {
  let best = Infinity;
  for (let n = 0; n < times; n += 1) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const chars = (n: number): string => n.toLocaleString('en');

export function runRenderHardeningBench(): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = {};
  console.log(`Rendering hostile notes and abstracts (cap off; base ${chars(BASE_CHARS)} characters)`);
  for (const c of CASES) {
    const sizes = SCALES.map((scale) => Math.ceil((scale * BASE_CHARS) / c.unit.length));
    fastest(() => c.render(c.unit.repeat(sizes[0] ?? 0), Infinity), 20); // compiled before it is timed
    const sources = sizes.map((count) => c.unit.repeat(count));
    const ms = sources.map((source) => fastest(() => c.render(source, Infinity)));
    const steps = ms.map((m, i) => `× ${chars(sizes[i] ?? 0)}: ${m.toFixed(1)} ms`).join(', ');
    const growth = ms.slice(1).map((m, i) => `${(m / (ms[i] ?? m)).toFixed(1)}×`);
    console.log(`  ${c.label} ${steps} (time ${growth.join(', then ')} for each 10× the input)`);
    const largest = sources[sources.length - 1] ?? '';
    const cappedMs = fastest(() => c.render(largest));
    console.log(`    with the ${chars(RENDER_LIMIT)}-character cap, the largest: ${cappedMs.toFixed(1)} ms`);
    figures[c.key] = { chars: sizes.map((n) => n * c.unit.length), ms, cappedMs };
  }
  return Promise.resolve({ render: figures });
}
