import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadCpuMs } from './thread-cpu.ts';

describe.runIf(process.platform === 'linux')('threadCpuMs', () => {
  it("counts the calling thread's CPU, not another thread's", async () => {
    const before = threadCpuMs();
    expect(before).toBeGreaterThanOrEqual(0);
    // A worker spins for a while; none of its CPU may show in this thread's figure.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const { readFileSync } = require('node:fs');
       const cpu = () => { const s = readFileSync('/proc/thread-self/stat', 'latin1').slice(0); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
       const start = cpu();
       while (cpu() - start < 300) {}
       parentPort.postMessage(cpu() - start);`,
      { eval: true },
    );
    const spun = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(spun).toBeGreaterThanOrEqual(300);
    const after = threadCpuMs() ?? 0;
    expect(after).toBeGreaterThanOrEqual(before ?? 0);
    expect(after - (before ?? 0)).toBeLessThan(spun);
  });
});
