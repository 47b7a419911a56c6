import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const DOCUMENT = /\.(pdf|png|jpe?g)$/i;

/** The files named, with directories walked (recursively, sorted) for PDF, PNG and JPEG files. */
export async function collectFiles(args: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) {
    const info = await stat(arg).catch(() => undefined);
    if (info?.isDirectory()) out.push(...(await walk(arg)));
    else out.push(arg);
  }
  return out;
}

async function walk(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile() && DOCUMENT.test(entry.name)) out.push(full);
  }
  return out;
}
