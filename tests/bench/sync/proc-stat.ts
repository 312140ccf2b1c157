import { readFileSync } from 'node:fs';

/** Clock ticks a second in /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** A process's parent and CPU seconds (its own, and its reaped children's), from /proc/<pid>/stat. */
export interface ProcStat {
  ppid: number;
  /** User + system time of the process itself. */
  cpuSeconds: number;
  /** User + system time of its children that have ended and been waited for. */
  reapedCpuSeconds: number;
}

/** `pid`'s /proc/<pid>/stat read; throws when the process is gone. */
export function readProcStat(pid: number | string): ProcStat {
  // After the command's closing parenthesis (a command may hold spaces): field 3 on, so ppid (field 4) is [1],
  // utime, stime, cutime, cstime (fields 14-17) are [11]-[14].
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const at = (i: number): number => Number(fields[i] ?? 0);
  return {
    ppid: at(1),
    cpuSeconds: (at(11) + at(12)) / TICKS,
    reapedCpuSeconds: (at(13) + at(14)) / TICKS,
  };
}
