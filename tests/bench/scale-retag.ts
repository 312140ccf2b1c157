/**
 * The scale bench's re-tag of a whole store, timed: after its import (every paper stale and untagged), or
 * on a kept store with `--reuse DIR --retag`, which first forgets every stored tag so the run writes all
 * of them again as after an import. Also says where the time went: the store's reads of stale pages, its
 * tag writes, and the rest (tagging, on this thread unless QUIRE_TAG_THREADS is set). On this thread they
 * add up: reads, tagging and writes run one after another, never overlapping.
 */
import { loadavg } from 'node:os';
import { defaultTaxonomy } from '@quire/core';
import type { TagStore } from '@quire/server/store/tag-store';
import { retag } from '@quire/server/topics/retag';

export interface TimedRetag {
  tagged: number;
  tagMs: number;
  tagCpuMs: number;
  /** Wall time awaiting the store's page reads and tag writes. */
  readMs: number;
  writeMs: number;
}

const s = (n: number): string => `${(n / 1000).toFixed(1)} s`;

/** Forgets every tag and topic definition the store holds: what the re-tag after an import starts from. */
export async function forgetTags(tags: TagStore): Promise<void> {
  await tags.beginRetag([...(await tags.topicHashes()).keys()], new Map(), 'all', new Date());
}

export async function timedRetag(tags: TagStore, say: (line: string) => void): Promise<TimedRetag> {
  let readMs = 0;
  let writeMs = 0;
  const timed =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, add: (ms: number) => void) =>
    async (...args: A): Promise<R> => {
      const t = performance.now();
      try {
        return await fn(...args);
      } finally {
        add(performance.now() - t);
      }
    };
  const read = timed(tags.stalePapersAfter.bind(tags), (ms) => (readMs += ms));
  const write = timed(tags.replacePaperTags.bind(tags), (ms) => (writeMs += ms));
  // Every other method called on the store itself: its private fields are not reachable through a copy.
  const traced = new Proxy(tags, {
    get(target, prop) {
      if (prop === 'stalePapersAfter') return read;
      if (prop === 'replacePaperTags') return write;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  let lastShown = performance.now();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const report = await retag(traced, defaultTaxonomy(), {
    onProgress: (done, total) => {
      if (performance.now() - lastShown < 10_000) return;
      lastShown = performance.now();
      say(`  tagging ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
    },
  });
  const tagMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const tagCpuMs = (cpu.user + cpu.system) / 1000;
  say(
    `  where the re-tag's time went: stale pages read ${s(readMs)}, tags written ${s(writeMs)}, ` +
      `the rest (tagging, the statistics pass) ${s(tagMs - readMs - writeMs)}; load ${loadavg()[0]?.toFixed(1)}`,
  );
  return { tagged: report.stalePapers, tagMs, tagCpuMs, readMs, writeMs };
}
