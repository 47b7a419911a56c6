/** The HTTP benchmark's load client (bench/http-client.ts) as a child process, and the calls to it. */
import { forkBenchScript } from './paths.js';
import type {
  ClientMessage,
  ClientTask,
  ClientTaskBody,
  LoadResult,
  LoadSpec,
  UploadsResult,
  UploadsSpec,
} from './http-load.js';

export interface HttpClientProcess {
  /** A load run in the client; `serverCpuSeconds` is this process's CPU time meanwhile. */
  load(spec: LoadSpec): Promise<LoadResult & { serverCpuSeconds: number }>;
  uploads(spec: UploadsSpec, timeoutMs: number): Promise<UploadsResult>;
  close(): Promise<void>;
}

/** Starts bench/http-client in a child process (compiled JavaScript, or TypeScript through tsx). */
export async function startHttpClient(): Promise<HttpClientProcess> {
  const child = forkBenchScript('http-client', []);
  let nextId = 1;
  const pending = new Map<number, { resolve: (m: ClientMessage) => void; reject: (e: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  let exited = false;
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: ClientMessage) => {
      if (message.type === 'ready') return resolve();
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.type === 'failed') waiting?.reject(new Error(`http client: ${message.error}`));
      else waiting?.resolve(message);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      exited = true;
      const error = new Error(`http client exited (${code})`);
      reject(error);
      failAll(error);
    });
  });
  await ready;
  const call = (task: ClientTaskBody): Promise<ClientMessage> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...task, id } satisfies ClientTask);
    });
  return {
    async load(spec) {
      const before = process.cpuUsage();
      const message = await call({ kind: 'load', spec });
      const cpu = process.cpuUsage(before);
      if (message.type !== 'done' || message.kind !== 'load')
        throw new Error('http client: unexpected answer');
      return { ...message.result, serverCpuSeconds: (cpu.user + cpu.system) / 1e6 };
    },
    async uploads(spec, timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const message = await Promise.race([
          call({ kind: 'uploads', spec }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`the load test did not finish within ${timeoutMs / 1000} s`)),
              timeoutMs,
            );
          }),
        ]);
        if (message.type !== 'done' || message.kind !== 'uploads') {
          throw new Error('http client: unexpected answer');
        }
        return message.result;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ id: 0, kind: 'exit' } satisfies ClientTask);
      const timer = setTimeout(() => child.kill(), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}
