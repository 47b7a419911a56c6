/**
 * `docex reviewers` in the process (main with captured streams), on the SQLite state `docex serve
 * --data-dir` uses; the same command on PostgreSQL runs in serve-scale-out.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { createSqlitePersistence } from '../../src/adapters/persistence/sqlite-persistence.js';
import { reviewerAccounts } from '../../src/reviewers/reviewers.js';
import { parseLines, run } from './cli-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docex-reviewers-'));
  dirs.push(dir);
  return dir;
}

/** Whether the login and password sign in, read from the data directory as serve would. */
async function signsIn(dir: string, login: string, password: string): Promise<boolean> {
  const persistence = createSqlitePersistence({ path: path.join(dir, 'docex.db') });
  try {
    return (await reviewerAccounts(persistence).authenticateReviewer(login, password)) !== undefined;
  } finally {
    await persistence.close();
  }
}

describe('docex reviewers', () => {
  it('adds an admin with a password from stdin, lists, renames, disables and enables', async () => {
    const dir = dataDir();
    const added = await run(
      [
        'reviewers',
        'add',
        '--login',
        'Ann@Example.com',
        '--name',
        'Ann',
        '--role',
        'admin',
        '--password-stdin',
        '--data-dir',
        dir,
      ],
      { stdin: 'ann-password-0123\nignored' },
    );
    expect(added.code, added.stderr).toBe(0);
    const [ann] = parseLines(added.stdout);
    expect(ann).toMatchObject({
      login: 'ann@example.com',
      name: 'Ann',
      role: 'admin',
      accountId: 'default',
      disabled: false,
    });
    // Never a password or a hash on the output.
    expect(added.stdout + added.stderr).not.toMatch(/ann-password|scrypt/);
    expect(await signsIn(dir, 'ann@example.com', 'ann-password-0123')).toBe(true);

    const listed = await run(['reviewers', 'list', '--data-dir', dir]);
    expect(parseLines(listed.stdout).map((r) => r.login)).toEqual(['ann@example.com']);
    expect(
      parseLines((await run(['reviewers', 'list', '--data-dir', dir, '--account', 'other'])).stdout),
    ).toEqual([]);

    const renamed = await run([
      'reviewers',
      'set',
      '--login',
      'ann@example.com',
      '--name',
      'Ann Smith',
      '--data-dir',
      dir,
    ]);
    expect(parseLines(renamed.stdout)[0]).toMatchObject({ name: 'Ann Smith', role: 'admin' });
    await run(['reviewers', 'set', '--login', 'ann@example.com', '--disable', '--data-dir', dir]);
    expect(await signsIn(dir, 'ann@example.com', 'ann-password-0123')).toBe(false);
    await run(['reviewers', 'set', '--login', 'ann@example.com', '--enable', '--data-dir', dir]);
    expect(await signsIn(dir, 'ann@example.com', 'ann-password-0123')).toBe(true);
    const newPassword = await run(
      ['reviewers', 'set', '--login', 'ann@example.com', '--password-stdin', '--data-dir', dir],
      { stdin: 'a-new-password-456\n' },
    );
    expect(newPassword.code).toBe(0);
    expect(await signsIn(dir, 'ann@example.com', 'a-new-password-456')).toBe(true);
    expect(await signsIn(dir, 'ann@example.com', 'ann-password-0123')).toBe(false);
  });

  it('makes a password when none is given and prints it once, on stderr', async () => {
    const dir = dataDir();
    const added = await run(['reviewers', 'add', '--login', 'bob', '--name', 'Bob', '--data-dir', dir]);
    expect(added.code).toBe(0);
    const password = /password of bob: (\S+) \(shown once\)/.exec(added.stderr)?.[1];
    expect(password?.length).toBeGreaterThanOrEqual(20);
    expect(await signsIn(dir, 'bob', password!)).toBe(true);
    expect(parseLines(added.stdout)[0]).toMatchObject({ role: 'reviewer' });
  });

  it('says what is wrong: a taken login, a short password, no such reviewer (1); usage errors (2)', async () => {
    const dir = dataDir();
    await run(['reviewers', 'add', '--login', 'bob', '--name', 'Bob', '--data-dir', dir]);
    const taken = await run(['reviewers', 'add', '--login', 'BOB', '--name', 'Bob 2', '--data-dir', dir]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('The login bob is taken.');
    const short = await run(
      ['reviewers', 'add', '--login', 'eve', '--name', 'Eve', '--password-stdin', '--data-dir', dir],
      {
        stdin: 'short\n',
      },
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('10 to 1024 characters');
    const missing = await run(['reviewers', 'set', '--login', 'nobody', '--disable', '--data-dir', dir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No reviewer nobody');
    // bob is in account "default", not in "other".
    expect(
      (
        await run([
          'reviewers',
          'set',
          '--login',
          'bob',
          '--account',
          'other',
          '--disable',
          '--data-dir',
          dir,
        ])
      ).code,
    ).toBe(1);
    for (const argv of [
      ['reviewers'],
      ['reviewers', 'remove'],
      ['reviewers', 'add', '--name', 'No Login', '--data-dir', dir],
      ['reviewers', 'add', '--login', 'x', '--name', 'X', '--role', 'root', '--data-dir', dir],
      ['reviewers', 'set', '--login', 'bob', '--disable', '--enable', '--data-dir', dir],
      ['reviewers', 'add', '--password', 'on-argv'],
    ]) {
      const answer = await run(argv);
      expect(answer.code, argv.join(' ')).toBe(2);
      expect(answer.stderr).toContain("Run 'docex reviewers --help'");
    }
    const help = await run(['reviewers', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--password-stdin');
  });
});
