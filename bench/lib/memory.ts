import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), or undefined off Linux or for a gone process. */
export function procStatusBytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The process and all its descendants (Linux: /proc/<pid>/task/<tid>/children). */
export function processTree(root: number): number[] {
  const seen = new Set<number>();
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
        if (children !== '') pending.push(...children.split(/\s+/).map(Number));
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
  return [...seen];
}

/** Summed resident memory of a process tree, or undefined where /proc is not available. */
export function treeRssBytes(root: number): number | undefined {
  let total = 0;
  let any = false;
  for (const pid of processTree(root)) {
    const rss = procStatusBytes(pid, 'VmRSS');
    if (rss !== undefined) {
      total += rss;
      any = true;
    }
  }
  return any ? total : undefined;
}

/** Resets this process's peak RSS (VmHWM) so it measures from now on; false where not supported. */
export function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples a number every `intervalMs` and keeps the largest seen. */
export function peakSampler(read: () => number | undefined, intervalMs = 50): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = (): void => {
    const value = read();
    if (value !== undefined && (peak === undefined || value > peak)) peak = value;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export function toMb(bytes: number | undefined): number | undefined {
  return bytes === undefined ? undefined : Math.round((bytes / MB) * 10) / 10;
}
