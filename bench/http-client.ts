/**
 * The HTTP benchmark's client (bench/sections/http.ts), in a process of its own so that its work
 * does not share the server's event loop (on a small machine the two still share the CPU cores; both
 * processes' CPU time is reported). node:http requests on keep-alive agents, one agent per server
 * port, as many sockets as the run's concurrency.
 * Protocol over the IPC channel: child `ready`, then for each task from the parent a `done` (or
 * `failed`) with its id; task `exit` ends the process.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { runLoad, runUploads, type ClientMessage, type ClientTask } from './lib/http-load.js';

function send(message: ClientMessage): void {
  if (!process.send) throw new Error('bench/http-client.ts must be started by bench/run.ts (IPC channel).');
  process.send(message);
}

const agents = new Map<string, http.Agent>();
const bodies = new Map<string, Buffer>();

function agentFor(port: number, sockets: number): http.Agent {
  const key = `${port}/${sockets}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
    agents.set(key, agent);
  }
  return agent;
}

function bodyOf(file: string): Buffer {
  let body = bodies.get(file);
  if (!body) {
    body = readFileSync(file);
    bodies.set(file, body);
  }
  return body;
}

async function handle(task: ClientTask): Promise<void> {
  try {
    if (task.kind === 'exit') {
      for (const agent of agents.values()) agent.destroy();
      process.disconnect();
      return;
    }
    if (task.kind === 'load') {
      const { spec } = task;
      const body = spec.bodyFile === undefined ? undefined : bodyOf(spec.bodyFile);
      const result = await runLoad(spec, agentFor(spec.port, spec.concurrency), body);
      send({ type: 'done', id: task.id, kind: 'load', result });
    } else {
      const result = await runUploads(task.spec);
      send({ type: 'done', id: task.id, kind: 'uploads', result });
    }
  } catch (error) {
    send({ type: 'failed', id: task.id, error: (error as Error).stack ?? String(error) });
  }
}

process.on('message', (task: ClientTask) => void handle(task));
send({ type: 'ready' });
