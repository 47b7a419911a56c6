/**
 * The real `docex` command as a child process (sections batch and logos): timed from its spawn to its
 * exit, its CPU time read from /proc, its summary line and `--progress plain` lines parsed, and the
 * JSON lines it writes read back.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

// ---------------------------------------------------------------------------------------------------
// The command as a child process

/** The summary `docex <command>` prints on stderr at the end of a batch. */
export interface BatchSummary {
  files: number;
  pages: number;
  failed: number;
  /** Failures by code, as printed ("UNSUPPORTED_FILE 2"), or ''. */
  failures: string;
  /** The batch's own time: from the first file started to the last line written (engine start not included). */
  seconds: number;
  filesPerSecond: number;
}

export interface CliRun {
  /** From spawning the process to its exit: Node start, module loading, engine start, batch, shutdown. */
  wallSeconds: number;
  /**
   * CPU time of the process (all its threads: main, tesseract.js workers, libuv pool), user + system,
   * as last read from /proc/<pid>/stat (every 50 ms: the last moments before the exit are not seen);
   * undefined off Linux.
   */
  cpuSeconds: number | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  summary: BatchSummary | undefined;
  /** The last lines of stderr (for a failure's message). */
  stderrTail: string;
}

/** `4.2 s`, `3 min 05 s`, `1 h 02 min` (src/cli/progress.ts formatDuration) in seconds. */
function parseDuration(text: string): number | undefined {
  let m = /^([\d.]+) s$/.exec(text);
  if (m) return Number(m[1]);
  m = /^(\d+) min (\d+) s$/.exec(text);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = /^(\d+) h (\d+) min$/.exec(text);
  if (m) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  return undefined;
}

/**
 * The summary line, e.g. `docex extract: 60 files, 150 pages, 0 failed, 7.3 s (8.21 files/s)`. The
 * seconds are taken from the rate (printed with two decimals) when it is large enough to be more exact
 * than the duration (printed to a tenth of a second, or to the second past one minute).
 */
export function parseSummary(stderr: string, command: string): BatchSummary | undefined {
  const re = new RegExp(
    `docex ${command}: (\\d+) files?, (\\d+) pages?, (\\d+) failed(?: \\(([^)]*)\\))?, (.+?) \\(([\\d.]+) files/s\\)`,
  );
  const m = re.exec(stderr);
  if (!m) return undefined;
  const files = Number(m[1]);
  const filesPerSecond = Number(m[6]);
  const printed = parseDuration(m[5]!);
  const fromRate = filesPerSecond >= 1 ? files / filesPerSecond : undefined;
  const seconds = fromRate ?? printed;
  if (seconds === undefined) return undefined;
  return {
    files,
    pages: Number(m[2]),
    failed: Number(m[3]),
    failures: m[4] ?? '',
    seconds,
    filesPerSecond,
  };
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux x86 and arm). */
const USER_HZ = 100;

/** User + system CPU seconds of a process and all its threads so far, or undefined. */
export function procCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the 14th
    // field of the line, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `node <bin> <args>` to its exit, timing it from the spawn; `onLine` sees each stderr line as it
 * comes (the `--progress plain` lines), `onSpawn` the child's pid.
 */
export function runCli(
  bin: string,
  args: string[],
  options: {
    command: string;
    onSpawn?: (pid: number) => void;
    onLine?: (line: string) => void;
    timeoutMs?: number;
  },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let cpuSeconds: number | undefined;
    const pid = child.pid;
    const cpuTimer =
      pid === undefined
        ? undefined
        : setInterval(() => {
            cpuSeconds = procCpuSeconds(pid) ?? cpuSeconds;
          }, 50);
    if (pid !== undefined) options.onSpawn?.(pid);
    const tail: string[] = [];
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      options.onLine?.(line);
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs).unref();
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      if (cpuTimer) clearInterval(cpuTimer);
      reject(error);
    });
    child.on('close', (exitCode, signal) => {
      const wallSeconds = (performance.now() - start) / 1000;
      if (timer) clearTimeout(timer);
      if (cpuTimer) clearInterval(cpuTimer);
      const stderrTail = tail.join('\n');
      resolve({
        wallSeconds,
        cpuSeconds,
        exitCode,
        signal,
        summary: parseSummary(stderrTail, options.command),
        stderrTail,
      });
    });
  });
}

/** Why a run does not count (it failed, or some file failed), or undefined when it is good. */
export function runProblem(result: CliRun, files: number): string | undefined {
  if (result.signal) return `docex was killed (${result.signal})`;
  if (!result.summary) return `no summary line (exit ${result.exitCode}): ${result.stderrTail.slice(-500)}`;
  if (result.summary.files !== files)
    return `${result.summary.files} lines written for ${files} files (exit ${result.exitCode})`;
  if (result.summary.failed > 0) return `${result.summary.failed} files failed (${result.summary.failures})`;
  if (result.exitCode !== 0) return `docex exited with ${result.exitCode}`;
  return undefined;
}

export interface ExtractLine {
  file: string;
  status?: string;
  error?: { code: string; message: string };
  results?: { fields: Array<{ name: string; value: unknown }> };
}

export async function readJsonLines(file: string): Promise<ExtractLine[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ExtractLine);
}

/**
 * The header fields of a line that have a value (strings, numbers, booleans), by name. Tables (line
 * items) are left out: their cells carry boxes, and how a row is cut into cells is not a field value.
 */
export function fieldValues(line: ExtractLine | undefined): Map<string, string> {
  const values = new Map<string, string>();
  for (const field of line?.results?.fields ?? []) {
    const { value } = field;
    if (typeof value === 'string' ? value !== '' : typeof value === 'number' || typeof value === 'boolean')
      values.set(field.name, String(value));
  }
  return values;
}

export interface FieldAgreement {
  /** Header fields with a value on the born-digital originals. */
  compared: number;
  /** Of those, the scans gave the same value. */
  same: number;
  /** The scans gave no value. */
  missing: number;
  /** `file field: original -> scan` for each other value. */
  different: string[];
}

/**
 * How many of the header fields read from the born-digital originals the scans gave with the same
 * value: lines are matched by file name without its extension.
 */
export function fieldAgreement(reference: ExtractLine[], scanned: ExtractLine[]): FieldAgreement {
  const key = (file: string): string => path.basename(file).replace(/\.[^.]+$/, '');
  const scans = new Map(scanned.map((l) => [key(l.file), l]));
  const result: FieldAgreement = { compared: 0, same: 0, missing: 0, different: [] };
  for (const line of reference) {
    const want = fieldValues(line);
    const got = fieldValues(scans.get(key(line.file)));
    for (const [name, value] of want) {
      result.compared++;
      const found = got.get(name);
      if (found === value) result.same++;
      else if (found === undefined) result.missing++;
      else
        result.different.push(
          `${key(line.file)} ${name}: ${JSON.stringify(value)} -> ${JSON.stringify(found)}`,
        );
    }
  }
  return result;
}

/** `[n/total] file: ok (...)` from `--progress plain`: the count and the outcome. */
export function parseProgressLine(
  line: string,
): { done: number; total: number; outcome: string } | undefined {
  const m = /^\[(\d+)\/(\d+)\] .*: (\S+) \([\d.]+ files\/s/.exec(line);
  return m ? { done: Number(m[1]), total: Number(m[2]), outcome: m[3]! } : undefined;
}
