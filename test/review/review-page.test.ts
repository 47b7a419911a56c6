import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../src/adapters/http/node-listener.js';
import { createEngine, createFetchHandler, type Engine, type FieldResult } from '../../src/index.js';
import type { TableValue } from '../../src/extraction/types.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';
import { whenJob } from '../helpers/when-job.js';

const CHROMIUM = '/usr/bin/chromium';
/**
 * The screenshot of the task view. The README links to docs/images/review-task.png, rewritten only
 * with DOCEX_UPDATE_SCREENSHOTS=1 (a test run leaves the repository as it was); otherwise a temporary file.
 */
const SCREENSHOT = process.env.DOCEX_UPDATE_SCREENSHOTS
  ? path.resolve('docs/images/review-task.png')
  : path.join(os.tmpdir(), `docex-review-task-${process.pid}.png`);
/** The same task at a phone's width (390 px). */
const PHONE_SCREENSHOT = process.env.DOCEX_UPDATE_SCREENSHOTS
  ? path.resolve('docs/images/review-task-phone.png')
  : path.join(os.tmpdir(), `docex-review-task-phone-${process.pid}.png`);

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`review page tests skipped: no browser at ${CHROMIUM} (Debian package chromium)`);

describe.skipIf(!hasChromium)('the review web page in a real browser', () => {
  let engine: Engine;
  let server: Server;
  let browser: Browser;
  let origin: string;
  let fileId: string;
  const client = { clientId: 'reviewer', clientSecret: 'reviewer-secret-0123456789' };

  beforeAll(async () => {
    engine = createEngine({ ingest: { ocr: 'never' } });
    await engine.createClient('acme', client);
    await engine.putValidationRules(
      'totals',
      {
        data: {
          checks: [
            {
              condition: {
                type: 'greater-than',
                values: ["$.predictions['svc.invoice.total'].value_norm", 100],
                compare_as: 'numeric',
              },
              note: 'Totals above 100 need a second look',
              field_ids: ['svc.invoice.total', 'svc.document.date', 'svc.invoice.lineitems'],
            },
          ],
        },
        schema: true,
      },
      { accountId: 'acme' },
    );
    const upload = await engine.uploadV2(await makeTextPdf([{ lines: INVOICE_LINES }]), {
      accountId: 'acme',
      name: 'invoice.pdf',
    });
    fileId = upload.fileId;
    const { job } = await engine.invoke(
      'svc.validate',
      { inputs: { file_id: fileId, product_id: 'invoices:2', rules_id: 'totals' } },
      { accountId: 'acme' },
    );
    // The task exists once the validation job has run (its end is awaited, not a time).
    await whenJob(engine, job.id, ['succeeded'], 'acme');
    expect(await engine.listTasks({ accountId: 'acme' })).toHaveLength(1);
    const handler = createFetchHandler(engine, {
      tokens: { secret: 'a-test-secret-of-at-least-32-bytes!!' },
    });
    server = createServer(createNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await engine?.close();
  });

  it('signs in, opens the task, shows the field on the page, takes a correction and completes it', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${origin}/review/`);

    // Wrong credentials are refused; the right ones sign in.
    await page.fill('input[name=clientId]', client.clientId);
    await page.fill('input[name=clientSecret]', 'wrong-secret-0000000000');
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('[role=alert]')).toContain('not valid');
    await page.fill('input[name=clientSecret]', client.clientSecret);
    await page.click('button[type=submit]');

    // The open task is listed; Enter opens the selected one (keyboard first).
    await page.waitForSelector('table.tasks tbody tr');
    // Each task names its document, the rule's note and the fields by their labels.
    const list = await page.textContent('table.tasks');
    expect(list).toContain('Totals above 100 need a second look');
    expect(list).toContain('invoice.pdf');
    expect(list).toContain('Invoice total, Document date, Invoice line items');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#page img');
    // Evaluated in the page (a string: this file is type-checked without the DOM library).
    await page.waitForFunction(
      "(() => { const image = document.querySelector('#page img'); return !!image && image.complete && image.naturalWidth > 0; })()",
    );
    expect(await page.textContent('#note')).toBe('Totals above 100 need a second look');

    // The highlight of the total sits where the field was read, over the word "150.00".
    const view = await engine.getTaskView((await engine.listTasks({ accountId: 'acme' }))[0]!.id, {
      accountId: 'acme',
    });
    const total = view.fields.find((f) => f.fieldId === 'svc.invoice.total')!;
    expect(total.value).toBe('150.00');
    // The line items as extracted: a table the reviewer cannot type into, kept whatever happens.
    const lineItems = view.fields.find((f) => f.fieldId === 'svc.invoice.lineitems')!;
    expect((lineItems.value as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(await page.inputValue('input[data-field-id="svc.invoice.lineitems"]')).toMatch(
      /^table, \d+ rows? \(kept as extracted\)$/,
    );
    const highlight = await page.locator('.highlight[data-field-id="svc.invoice.total"]').boundingBox();
    const image = await page.locator('#page img').boundingBox();
    expect(highlight && image).toBeTruthy();
    const box = total.boundingBox!;
    expect((highlight!.x - image!.x) / image!.width).toBeCloseTo(box.topLeft.x, 2);
    expect((highlight!.y - image!.y) / image!.height).toBeCloseTo(box.topLeft.y, 2);
    const word = await page.locator('.token[title="150.00"]').first().boundingBox();
    expect(Math.abs(word!.x - highlight!.x)).toBeLessThan(3);
    expect(Math.abs(word!.y - highlight!.y)).toBeLessThan(3);

    expect(await page.textContent('label[for="svc.invoice.total"]')).toBe('Invoice total');
    // Alternatives are offered once each, never the value itself.
    const offered = await page
      .locator('.field[data-field-id="svc.invoice.total"] .alternatives button')
      .allTextContents();
    const values = offered.map((t) => t.replace(/ \(\d+%\)$/, ''));
    expect(values.length).toBeGreaterThan(0);
    expect(new Set(values).size).toBe(values.length);
    expect(values).not.toContain('150.00');

    // The first field (the total) has focus; its typed input is a number.
    expect(await page.getAttribute('input[data-field-id="svc.invoice.total"]', 'type')).toBe('number');
    expect(await page.getAttribute('input[data-field-id="svc.document.date"]', 'type')).toBe('date');
    expect(await page.inputValue('input[data-field-id="svc.document.date"]')).toBe('2024-03-14');
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    // A PNG of the whole task view.
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString('latin1')).toBe('PNG');
    // At a phone's width the page is as wide as the screen, not a thumbnail beside the fields.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(async () => ((await page.locator('#page img').boundingBox())?.width ?? 0) / 390)
      .toBeGreaterThan(0.85);
    await page.screenshot({ path: PHONE_SCREENSHOT, fullPage: true });
    expect(readFileSync(PHONE_SCREENSHOT).subarray(1, 4).toString('latin1')).toBe('PNG');
    await page.setViewportSize({ width: 1400, height: 1000 });

    // A click on a word of the page takes it as the value; then the reviewer types a correction.
    await page.click('input[data-field-id="svc.invoice.total"]');
    await page.locator('.token[title="150.00"]').first().click();
    expect(await page.inputValue('input[data-field-id="svc.invoice.total"]')).toBe('150.00');
    await page.fill('input[data-field-id="svc.invoice.total"]', '155.50');
    await page.keyboard.press('Enter'); // accept, on to the date
    await page.keyboard.press('Control+Enter'); // complete
    await page.waitForSelector('#all-done');
    expect(await page.textContent('#all-done')).toBe('Task completed: invoice.pdf. No open tasks left.');

    const result = await engine.getResult(fileId, { accountId: 'acme', timeoutMs: 5000 });
    expect(result.status).toBe('FINALISED');
    if (result.status !== 'FINALISED') return;
    const fields = Object.fromEntries(result.results.fields.map((f) => [f.name, f as FieldResult]));
    expect(fields['invoice.total']).toMatchObject({ value: '155.50', confidence: 1 });
    expect(fields['document.date']).toMatchObject({ value: '2024-03-14', confidence: 1 });
    // Completing without touching the line items left them exactly as extracted (was: null).
    expect(fields['invoice.lineitems']!.value).toEqual(lineItems.value);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('keeps the active field in view on a two-page task, and j/k/Enter/Ctrl+Enter in sequence', async () => {
    // The total at the foot of page 2, the date at the head of page 1.
    const pdf = await makeTextPdf([
      { lines: INVOICE_LINES.filter((l) => !l.text.startsWith('Total')) },
      {
        lines: [
          { text: 'Terms: 30 days', x: 50, y: 100, size: 12 },
          { text: 'Total 150.00', x: 50, y: 790, size: 14, bold: true },
        ],
      },
    ]);
    const upload = await engine.uploadV2(pdf, { accountId: 'acme', name: 'two-pages.pdf' });
    const { job } = await engine.invoke(
      'svc.validate',
      { inputs: { file_id: upload.fileId, product_id: 'invoices:2', rules_id: 'totals' } },
      { accountId: 'acme' },
    );
    await whenJob(engine, job.id, ['succeeded'], 'acme');
    const task = (await engine.listTasks({ accountId: 'acme' })).find((t) => t.fileId === upload.fileId)!;
    const view = await engine.getTaskView(task.id, { accountId: 'acme' });
    const boxed = view.fields.filter((f) => f.boundingBox);
    expect(new Set(boxed.map((f) => f.boundingBox!.pageNum))).toEqual(new Set([1, 2]));

    const page = await browser.newPage({ viewport: { width: 1280, height: 700 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${origin}/review/`);
    await page.fill('input[name=clientId]', client.clientId);
    await page.fill('input[name=clientSecret]', client.clientSecret);
    await page.click('button[type=submit]');
    await page.locator('table.tasks tbody tr', { hasText: 'two-pages.pdf' }).click();
    await page.waitForSelector('#page img');

    /** The active field's id and whether its box (when it has one) lies inside the viewer and the window. */
    const activeInView = () =>
      page.evaluate(`(() => {
        const card = document.querySelector('.field.active');
        const id = card && card.getAttribute('data-field-id');
        const mark = document.querySelector('.highlight.active');
        const image = document.querySelector('#page img');
        if (!mark || !image || !image.complete || image.naturalWidth === 0) return { id, inView: false };
        const box = mark.getBoundingClientRect();
        const viewer = document.getElementById('viewer').getBoundingClientRect();
        const inside = (r, o) => r.top >= o.top && r.bottom <= o.bottom && r.left >= o.left && r.right <= o.right;
        return { id, inView: inside(box, viewer) && box.top >= 0 && box.bottom <= window.innerHeight };
      })()`) as Promise<{ id: string; inView: boolean }>;
    const ids = view.fields.map((f) => f.fieldId);
    const hasBox = (id: string) => view.fields.find((f) => f.fieldId === id)!.boundingBox !== null;
    const focused = () => page.evaluate('document.activeElement && document.activeElement.tagName');

    // The first field is active with the cursor in its input; Escape goes back to its card.
    expect((await activeInView()).id).toBe(ids[0]);
    if (hasBox(ids[0]!)) await expect.poll(async () => (await activeInView()).inView).toBe(true);
    expect(await focused()).toBe('INPUT');
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('DIV');
    // j through every field: each box comes into view, no j lands in an input.
    for (let i = 1; i < ids.length; i++) {
      await page.keyboard.press('j');
      expect((await activeInView()).id).toBe(ids[i]);
      if (hasBox(ids[i]!)) await expect.poll(async () => (await activeInView()).inView).toBe(true);
      expect(await focused()).toBe('DIV');
    }
    await page.keyboard.press('k');
    expect((await activeInView()).id).toBe(ids[ids.length - 2]);
    // No key went into an input: every one holds what it was given.
    expect(
      await page.evaluate(
        "[...document.querySelectorAll('input[data-field-id]')].filter((i) => i.value !== i.dataset.initial).length",
      ),
    ).toBe(0);
    // Back to the total (page 2); Enter edits it; a word clicked on the page becomes its value, and
    // keeps that word's box. Ctrl+Enter completes, and the page says so.
    for (let i = ids.length - 2; i > 0; i--) await page.keyboard.press('k');
    expect(ids[0]).toBe('svc.invoice.total');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('INPUT');
    expect(await page.evaluate('document.activeElement.getAttribute("data-field-id")')).toBe(ids[0]);
    await expect.poll(() => page.textContent('#page-label')).toBe('page 2 of 2');
    const thirty = page.locator('.token[title="30"]').first();
    await thirty.click();
    expect(await page.inputValue('input[data-field-id="svc.invoice.total"]')).toBe('30');
    const thirtyId = Number(await thirty.getAttribute('data-token-id'));

    // The line items as a table: a cell edited, a row deleted, a row added and moved up.
    const original = view.fields.find((f) => f.fieldId === 'svc.invoice.lineitems')!.value as TableValue;
    expect(original.rows.length).toBe(2);
    const last = original.headers.length - 1;
    const editor = page.locator('.field[data-field-id="svc.invoice.lineitems"] .table-editor');
    await editor.locator(`input[data-cell="0,${last}"]`).fill('125.00');
    await editor.locator('button[aria-label="Delete row 2"]').click();
    await editor.locator('button[aria-label="Add a row"]').click();
    await editor.locator('input[data-cell="1,0"]').fill('Freight');
    await editor.locator('button[aria-label="Move row 2 up"]').click();
    await editor.locator(`input[data-cell="0,${last}"]`).fill('5.00');
    expect(await page.inputValue('input[data-field-id="svc.invoice.lineitems"]')).toBe(
      'table, 2 rows (changed)',
    );
    // Ctrl+Enter completes from a cell too.
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(async () => (await page.textContent('#all-done, #status')) ?? '')
      .toContain('Task completed: two-pages.pdf.');
    expect((await engine.getTask(task.id, { accountId: 'acme' })).status).toBe('completed');
    const result = await engine.getResult(upload.fileId, { accountId: 'acme', timeoutMs: 5000 });
    if (result.status !== 'FINALISED') throw new Error(`not finalised: ${result.status}`);
    const corrected = result.results.fields.find((f) => f.name === 'invoice.total') as FieldResult;
    expect(corrected).toMatchObject({ value: '30.00', confidence: 1 });
    expect(corrected.boundingBox).toMatchObject({ pageNum: 2, tokenIds: [thirtyId] });
    const table = (result.results.fields.find((f) => f.name === 'invoice.lineitems') as FieldResult)
      .value as TableValue;
    expect(table.headers).toEqual(original.headers);
    const added = original.headers.map((_, c) =>
      c === 0
        ? { value: 'Freight', boundingBox: null }
        : c === last
          ? { value: '5.00', boundingBox: null }
          : null,
    );
    // The edited row keeps the boxes of the cells nobody touched.
    const edited = original.rows[0]!.map((cell, c) =>
      c === last ? { value: '125.00', boundingBox: null } : cell,
    );
    expect(table.rows).toEqual([added, edited]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('keeps the API behind the session cookie and the CSRF token', async () => {
    const anonymous = await fetch(`${origin}/review/api/tasks`);
    expect(anonymous.status).toBe(401);
    const login = await fetch(`${origin}/review/api/login`, {
      method: 'POST',
      body: JSON.stringify(client),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/review\//);
    const session = cookie.split(';')[0]!;
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const listed = await fetch(`${origin}/review/api/tasks`, { headers: { cookie: session } });
    expect(listed.status).toBe(200);
    // A change without the CSRF token is refused even with the cookie.
    const forged = await fetch(`${origin}/review/api/logout`, {
      method: 'POST',
      headers: { cookie: session },
    });
    expect(forged.status).toBe(401);
    const out = await fetch(`${origin}/review/api/logout`, {
      method: 'POST',
      headers: { cookie: session, 'x-csrf-token': csrfToken },
    });
    expect(out.status).toBe(200);
    // The page itself is served with a strict content security policy and no third-party resource.
    const html = await fetch(`${origin}/review/`);
    expect(html.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await html.text()).not.toMatch(/https?:\/\//);
  });
});

describe('the review page under a host prefix', () => {
  it('scopes the session cookie to the page as the browser sees it', async () => {
    const engine = createEngine({ ingest: { ocr: 'never' } });
    try {
      await engine.createClient('acme', { clientId: 'r', clientSecret: 'reviewer-secret-0123456789' });
      const handler = createFetchHandler(engine, { basePath: '/docex', review: { path: '/check/' } });
      const login = await handler(
        new Request('http://127.0.0.1/docex/check/api/login', {
          method: 'POST',
          body: JSON.stringify({ clientId: 'r', clientSecret: 'reviewer-secret-0123456789' }),
        }),
      );
      expect(login.status).toBe(200);
      expect(login.headers.get('set-cookie')).toMatch(/Path=\/docex\/check\/;/);
      const page = await handler(new Request('http://127.0.0.1/docex/check/'));
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const off = createFetchHandler(engine, { review: false });
      expect((await off(new Request('http://127.0.0.1/review/'))).status).toBe(404);
    } finally {
      await engine.close();
    }
  });
});
