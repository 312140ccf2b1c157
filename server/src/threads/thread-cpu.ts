import { readFileSync } from 'node:fs';

/**
 * CPU time of the calling thread alone (user + system, ms), or null where the system does not say (it is
 * read from Linux's /proc/thread-self/stat; Node 20 has no per-thread figure of its own, and
 * `process.cpuUsage()` counts every thread of the process). Ten-millisecond resolution: for runs of
 * seconds, such as an import's threads, to show where its time goes.
 */
export function threadCpuMs(): number | null {
  let stat: string;
  try {
    stat = readFileSync('/proc/thread-self/stat', 'latin1');
  } catch {
    return null;
  }
  // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the name), in USER_HZ ticks,
  // which Linux fixes at 100 a second for /proc whatever the kernel's own tick.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * 10 : null;
}
