// @ts-check
/**
 * The docex review page: sign in, see the open tasks (by priority, then age), open one, correct the
 * fields on the page image, complete. Plain JavaScript with JSDoc types (checked by tsconfig.review.json);
 * no framework, no build step, no network but this server.
 */

/**
 * @typedef {{ pageNum: number, topLeft: { x: number, y: number }, bottomRight: { x: number, y: number }, tokenIds: number[] }} Box
 * @typedef {{ value: string, confidence: number, boundingBox: Box | null, text: string }} Candidate
 * @typedef {{ fieldId: string, name: string, kind: string, value: unknown, confidence: number, boundingBox: Box | null, candidates: Candidate[] }} Field
 * @typedef {{ id: string, fileId: string, fileName?: string, status: string, note: string, field_ids: string[], priority: number, createdAt: string }} Task
 * @typedef {{ task: Task, file: { fileId: string, name?: string, mediaType: string, pageCount: number }, fields: Field[] }} TaskView
 * @typedef {{ id: number, text: string, box: { x0: number, y0: number, x1: number, y1: number } }} Token
 * @typedef {{ value: string, boundingBox: Box | null } | null} Cell
 * @typedef {{ headers: string[], rows: Cell[][], types?: (string | null)[] }} Table
 * @typedef {{ reviewerId: string, login: string, name: string, role: string }} Me
 * @typedef {{ reviewerId: string, login: string, name: string, role: string, disabled: boolean, createdAt: string }} Reviewer
 * @typedef {{ values: Map<string, string>, taken: Map<string, number[]>, tables: Map<string, Table> }} Edits
 * @typedef {{ taskId: string, name: string, body: string, edits: Edits, timer: ReturnType<typeof setTimeout> }} Pending
 */

const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const accountLabel = /** @type {HTMLElement} */ (document.getElementById('account'));
const signOut = /** @type {HTMLButtonElement} */ (document.getElementById('sign-out'));
const passwordLink = /** @type {HTMLButtonElement} */ (document.getElementById('password-link'));
const reviewersLink = /** @type {HTMLButtonElement} */ (document.getElementById('reviewers-link'));
const toast = /** @type {HTMLElement} */ (document.getElementById('toast'));

const state = {
  csrf: '',
  /** @type {Me | null} */ me: null,
  /** How long a completion can be undone before it is sent (the server's setting). */
  undoMs: 10_000,
  /** @type {Task[]} */ tasks: [],
  selected: 0,
  /** @type {TaskView | null} */ view: null,
  page: 1,
  zoom: 1,
  field: 0,
  /** @type {Set<string>} */ accepted: new Set(),
  /** Words a field's value was taken from, by field id. @type {Map<string, number[]>} */
  taken: new Map(),
  /** Tables the reviewer changed (a copy each), by field id; the others are kept as extracted. @type {Map<string, Table>} */
  tables: new Map(),
  /** What the reviewer had typed, by field id, when a task opens again after an undo. @type {Map<string, string>} */
  typed: new Map(),
};

/**
 * @param {string} path
 * @param {RequestInit} [init]
 */
async function api(path, init = {}) {
  const headers = new Headers(init.headers);
  if (init.method && init.method !== 'GET') {
    headers.set('content-type', 'application/json');
    headers.set('x-csrf-token', state.csrf);
  }
  const response = await fetch(`api/${path}`, { ...init, headers, credentials: 'same-origin' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body?.error?.message ?? `Request failed (${response.status})`);
    /** @type {any} */ (error).status = response.status;
    throw error;
  }
  return body;
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attrs]
 * @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}

/**
 * A labelled input (the label wraps it, so a screen reader names it and a click on the text focuses it).
 * @param {string} text @param {HTMLElement} control
 */
function labelled(text, control) {
  return el('label', { class: 'labelled' }, [el('span', {}, [text]), control]);
}

/**
 * Shows who is signed in, and the admin's link to the reviewers.
 * @param {{ accountId: string, reviewer: Me, csrfToken: string, undoSeconds?: number }} session
 */
function signedIn(session) {
  state.csrf = session.csrfToken;
  state.me = session.reviewer;
  state.undoMs = Math.max(0, (session.undoSeconds ?? 10) * 1000);
  accountLabel.textContent = `${session.reviewer.name} (${session.reviewer.role}) · account ${session.accountId}`;
  signOut.hidden = false;
  passwordLink.hidden = false;
  reviewersLink.hidden = session.reviewer.role !== 'admin';
}

/**
 * The view last asked for: a view that loads (the task list, a task, the reviewers) draws itself only if
 * no other was asked for while it loaded. A reviewer who opens the reviewers while the task list still
 * loads after sign-in keeps the reviewers.
 */
let navigation = 0;

function showLogin(message = '') {
  navigation++;
  state.view = null;
  state.me = null;
  signOut.hidden = true;
  passwordLink.hidden = true;
  reviewersLink.hidden = true;
  accountLabel.textContent = '';
  const login = el('input', { name: 'login', autocomplete: 'username', required: '' });
  const password = el('input', {
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    required: '',
  });
  const error = el('p', { class: 'error', role: 'alert' }, [message]);
  const form = el('form', { class: 'login' }, [
    el('h2', {}, ['Sign in']),
    labelled('Login or e-mail', login),
    labelled('Password', password),
    el('button', { class: 'primary', type: 'submit' }, ['Sign in']),
    error,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      signedIn(
        await api('login', {
          method: 'POST',
          body: JSON.stringify({ login: login.value, password: password.value }),
        }),
      );
      await showList();
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  app.replaceChildren(form);
  login.focus();
}

/** The signed-in reviewer's own password: the current one, the new one twice; then sign in again. */
function showPassword() {
  navigation++;
  state.view = null;
  const current = el('input', { type: 'password', autocomplete: 'current-password', required: '' });
  const next = el('input', { type: 'password', autocomplete: 'new-password', required: '', minlength: '10' });
  const again = el('input', {
    type: 'password',
    autocomplete: 'new-password',
    required: '',
    minlength: '10',
  });
  const error = el('p', { class: 'error', role: 'alert' });
  const back = el('button', { type: 'button' }, ['Back to the tasks']);
  back.addEventListener('click', () => void showList());
  const form = el('form', { class: 'login', id: 'password-form' }, [
    el('h2', {}, ['Change your password']),
    labelled('Current password', current),
    labelled('New password (10 characters or more)', next),
    labelled('New password again', again),
    el('button', { class: 'primary', type: 'submit' }, ['Change password']),
    back,
    error,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (next.value !== again.value) {
      error.textContent = 'The two new passwords differ.';
      return;
    }
    try {
      await flushPending();
      await api('password', {
        method: 'POST',
        body: JSON.stringify({ current: current.value, password: next.value }),
      });
      state.csrf = '';
      showLogin('Your password was changed: sign in with the new one.');
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  app.replaceChildren(form);
  current.focus();
}

/**
 * The account's reviewers, for an admin: add one (name, login, role, first password), change a role,
 * set a new password, disable or enable. A change of password, role or state signs that person out.
 * @param {string} [message]
 */
async function showReviewers(message = '') {
  const mine = ++navigation;
  state.view = null;
  const { reviewers } = await api('reviewers');
  if (mine !== navigation) return;
  const error = el('p', { class: 'error', role: 'alert' });
  /** @param {Reviewer} r @param {Record<string, unknown>} changes @param {string} done */
  const change = async (r, changes, done) => {
    try {
      await api(`reviewers/${encodeURIComponent(r.reviewerId)}`, {
        method: 'PATCH',
        body: JSON.stringify(changes),
      });
      await showReviewers(done);
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  };
  /** @param {string} selected */
  const roleSelect = (selected) => {
    const select = el('select', {}, [
      el('option', { value: 'reviewer' }, ['reviewer']),
      el('option', { value: 'admin' }, ['admin']),
    ]);
    select.value = selected;
    return select;
  };
  const rows = reviewers.map((/** @type {Reviewer} */ r) => {
    const role = roleSelect(r.role);
    role.setAttribute('aria-label', `Role of ${r.name}`);
    role.addEventListener(
      'change',
      () => void change(r, { role: role.value }, `${r.name} is now ${role.value}.`),
    );
    const toggle = el('button', { type: 'button' }, [r.disabled ? 'Enable' : 'Disable']);
    toggle.setAttribute('aria-label', `${r.disabled ? 'Enable' : 'Disable'} ${r.name}`);
    toggle.addEventListener(
      'click',
      () => void change(r, { disabled: !r.disabled }, `${r.name} is ${r.disabled ? 'enabled' : 'disabled'}.`),
    );
    const password = el('input', {
      type: 'password',
      autocomplete: 'new-password',
      'aria-label': `New password for ${r.name}`,
    });
    const setPassword = el('button', { type: 'button' }, ['Set password']);
    setPassword.setAttribute('aria-label', `Set the password of ${r.name}`);
    setPassword.addEventListener(
      'click',
      () => void change(r, { password: password.value }, `${r.name} has a new password.`),
    );
    return el('tr', { 'data-login': r.login }, [
      el('td', {}, [r.name]),
      el('td', {}, [r.login]),
      el('td', {}, [role]),
      el('td', {}, [r.disabled ? 'disabled' : 'active']),
      el('td', {}, [toggle]),
      el('td', { class: 'set-password' }, [password, setPassword]),
    ]);
  });
  const name = el('input', { name: 'name', required: '', autocomplete: 'off' });
  const login = el('input', { name: 'login', required: '', autocomplete: 'off' });
  const role = roleSelect('reviewer');
  role.setAttribute('name', 'role');
  const password = el('input', {
    name: 'password',
    type: 'password',
    autocomplete: 'new-password',
    required: '',
  });
  const add = el('form', { class: 'add-reviewer' }, [
    el('h3', {}, ['Add a reviewer']),
    labelled('Name', name),
    labelled('Login or e-mail', login),
    labelled('Role', role),
    labelled('First password (10 characters or more)', password),
    el('button', { class: 'primary', type: 'submit' }, ['Add reviewer']),
  ]);
  add.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api('reviewers', {
        method: 'POST',
        body: JSON.stringify({
          name: name.value,
          login: login.value,
          role: role.value,
          password: password.value,
        }),
      });
      await showReviewers(`Added ${name.value.trim()}.`);
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  const back = el('button', { type: 'button' }, ['Back to the tasks']);
  back.addEventListener('click', () => void showList());
  app.replaceChildren(
    el('div', { class: 'toolbar' }, [back]),
    el('h2', {}, [`Reviewers (${reviewers.length})`]),
    el('table', { class: 'tasks reviewers' }, [
      el('thead', {}, [
        el('tr', {}, [
          el('th', {}, ['Name']),
          el('th', {}, ['Login']),
          el('th', {}, ['Role']),
          el('th', {}, ['State']),
          el('th', {}, ['']),
          el('th', {}, ['Password']),
        ]),
      ]),
      el('tbody', {}, rows),
    ]),
    add,
    el('p', { class: 'status', role: 'status', id: 'reviewers-status' }, [message]),
    error,
  );
}

async function showList() {
  const mine = ++navigation;
  state.view = null;
  const { tasks } = await api('tasks');
  if (mine !== navigation) return;
  // A completion waiting out its undo window is done as far as the reviewer is concerned.
  state.tasks = tasks.filter((/** @type {Task} */ t) => t.id !== pending?.taskId);
  state.selected = Math.min(state.selected, Math.max(0, state.tasks.length - 1));
  if (state.tasks.length === 0) {
    app.replaceChildren(el('p', { class: 'done' }, ['No open tasks.']));
    return;
  }
  const rows = state.tasks.map((/** @type {Task} */ task, /** @type {number} */ i) => {
    const row = el('tr', { 'data-task-id': task.id, class: i === state.selected ? 'selected' : '' }, [
      el('td', {}, [String(task.priority)]),
      el('td', {}, [task.fileName ?? task.fileId]),
      el('td', {}, [task.note]),
      el('td', { title: task.field_ids.join(', ') }, [task.field_ids.map(fieldLabel).join(', ')]),
      el('td', {}, [new Date(task.createdAt).toLocaleString()]),
    ]);
    row.addEventListener('click', () => void openTask(i));
    return row;
  });
  app.replaceChildren(
    el('h2', {}, [`Open tasks (${state.tasks.length})`]),
    el('table', { class: 'tasks' }, [
      el('thead', {}, [
        el('tr', {}, [
          el('th', {}, ['Priority']),
          el('th', {}, ['Document']),
          el('th', {}, ['Note']),
          el('th', {}, ['Fields']),
          el('th', {}, ['Created']),
        ]),
      ]),
      el('tbody', {}, rows),
    ]),
  );
}

/**
 * Opens a task; `edits` puts back what the reviewer had typed, taken and changed (after an undo).
 * @param {number} index @param {Edits} [edits]
 */
async function openTask(index, edits) {
  const task = state.tasks[index];
  if (!task) return showList();
  state.selected = index;
  const mine = ++navigation;
  const view = await api(`tasks/${encodeURIComponent(task.id)}`);
  if (mine !== navigation) return;
  state.view = view;
  state.field = 0;
  state.zoom = 1;
  state.accepted = new Set();
  state.taken = new Map(edits?.taken ?? []);
  state.tables = new Map(edits?.tables ?? []);
  // Filled in as the inputs are made: the task never shows its old values while its page loads.
  state.typed = new Map(edits?.values ?? []);
  const first = state.view?.fields.find((f) => f.boundingBox);
  state.page = first?.boundingBox?.pageNum ?? 1;
  await renderTask();
}

/**
 * The field's input, holding its value as extracted (`data-initial` remembers it, so completing can
 * tell what the reviewer changed). A value no text box can hold (a table: line items) is shown read
 * only and always kept as extracted.
 * @param {Field} field
 */
function inputFor(field) {
  const input = el('input', { 'data-field-id': field.fieldId, name: field.fieldId });
  if (isTable(field.value)) {
    const changed = state.tables.get(field.fieldId);
    const rows = (changed ?? /** @type {{ rows: unknown[] }} */ (field.value)).rows.length;
    Object.assign(input, {
      readOnly: true,
      value: `table, ${rows} row${rows === 1 ? '' : 's'} (${changed ? 'changed' : 'kept as extracted'})`,
    });
    input.dataset.kept = 'true';
    input.setAttribute('aria-label', `${fieldLabel(field.fieldId)}: summary`);
  } else if (field.kind === 'date') input.type = 'date';
  else if (field.kind === 'amount') Object.assign(input, { type: 'number', step: '0.01' });
  else if (field.kind === 'integer') Object.assign(input, { type: 'number', step: '1' });
  if (!input.dataset.kept) input.value = typeof field.value === 'string' ? field.value : '';
  // `data-initial` is the extracted value, whatever the reviewer had typed before an undo.
  input.dataset.initial = input.value;
  const typed = state.typed.get(field.fieldId);
  if (typed !== undefined && !input.dataset.kept) input.value = typed;
  return input;
}

/**
 * A table field as an editable table: a row per line with a text input per cell, rows moved up and
 * down, deleted and added. Nothing is sent for a table the reviewer did not change; a changed one is
 * sent whole, its unchanged cells with their boxes, edited cells without. `summary` is the field's
 * one-line input, which says whether the table was changed.
 * @param {Field} field @param {HTMLInputElement} summary
 */
function tableEditor(field, summary) {
  const original = /** @type {Table} */ (field.value);
  const wrap = el('div', { class: 'table-editor' });
  /** The table being edited: the reviewer's copy once changed, else the extracted one. */
  const current = () => state.tables.get(field.fieldId) ?? original;
  /** The reviewer's copy, made at the first change. */
  const editable = () => {
    let table = state.tables.get(field.fieldId);
    if (!table) {
      table = /** @type {Table} */ (JSON.parse(JSON.stringify(original)));
      state.tables.set(field.fieldId, table);
    }
    return table;
  };
  /** Says the table was changed; `redraw` after a row moved, was added or deleted. */
  const changed = (redraw = true) => {
    const rows = editable().rows.length;
    summary.value = `table, ${rows} row${rows === 1 ? '' : 's'} (changed)`;
    if (redraw) draw();
  };
  /** @param {string} text @param {string} label @param {() => void} action */
  const button = (text, label, action) => {
    const b = el('button', { type: 'button', 'aria-label': label, title: label }, [text]);
    b.addEventListener('click', action);
    return b;
  };
  function draw() {
    const table = current();
    const head = el('tr', {}, [...table.headers.map((h) => el('th', {}, [h])), el('th', {}, [''])]);
    const body = table.rows.map((row, r) => {
      const cells = table.headers.map((header, c) => {
        const cell = row[c] ?? null;
        const input = el('input', {
          'data-cell': `${r},${c}`,
          'aria-label': `${header || `column ${c + 1}`}, row ${r + 1}`,
        });
        input.value = cell?.value ?? '';
        input.addEventListener('focus', () => showCellBox(cell?.boundingBox ?? null));
        input.addEventListener('input', () => {
          const row = editable().rows[r];
          const text = input.value.trim();
          // An edited cell is no longer where it was read.
          if (row) row[c] = text === '' ? null : { value: text, boundingBox: null };
          changed(false);
        });
        return el('td', {}, [input]);
      });
      const actions = el('td', { class: 'row-actions' }, [
        button('↑', `Move row ${r + 1} up`, () => {
          const rows = editable().rows;
          if (r > 0) [rows[r - 1], rows[r]] = [rows[r], rows[r - 1]];
          changed();
        }),
        button('↓', `Move row ${r + 1} down`, () => {
          const rows = editable().rows;
          if (r < rows.length - 1) [rows[r + 1], rows[r]] = [rows[r], rows[r + 1]];
          changed();
        }),
        button('✕', `Delete row ${r + 1}`, () => {
          editable().rows.splice(r, 1);
          changed();
        }),
      ]);
      return el('tr', {}, [...cells, actions]);
    });
    const add = button('Add row', 'Add a row', () => {
      const table = editable();
      table.rows.push(table.headers.map(() => null));
      changed();
    });
    wrap.replaceChildren(
      el('table', { class: 'cells' }, [el('thead', {}, [head]), el('tbody', {}, body)]),
      add,
    );
  }
  draw();
  return wrap;
}

/**
 * Outlines a table cell's box on the page while its input has focus (on the page shown).
 * @param {Box | null} box
 */
function showCellBox(box) {
  document.querySelectorAll('.cell-highlight').forEach((node) => node.remove());
  const page = document.getElementById('page');
  if (!box || !page || box.pageNum !== state.page) return;
  const mark = el('div', { class: 'highlight cell-highlight' });
  place(mark, box.topLeft.x, box.topLeft.y, box.bottomRight.x, box.bottomRight.y);
  page.append(mark);
  mark.scrollIntoView({ block: 'center', inline: 'center' });
}

/** @param {unknown} value */
function isTable(value) {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray(/** @type {{ rows?: unknown }} */ (value).rows)
  );
}

async function renderTask() {
  const view = state.view;
  if (!view) return;
  const { task, file, fields } = view;
  const fieldNodes = fields.map((field, i) => {
    const input = inputFor(field);
    input.addEventListener('focus', () => setField(i, false));
    // A typed value is no longer the words taken from the page.
    input.addEventListener('input', () => state.taken.delete(field.fieldId));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void complete();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        state.accepted.add(field.fieldId);
        card.classList.add('accepted');
        setField(Math.min(fields.length - 1, i + 1), true);
      } else if (event.key === 'Escape') {
        // Back to the card: j/k move on again.
        card.focus();
      }
    });
    // Each value once: candidates read in several places offer the same value.
    const offered = new Set([field.value]);
    const alternatives = field.candidates
      .filter((c) => !offered.has(c.value) && offered.add(c.value))
      .slice(0, 4)
      .map((c) => {
        const button = el('button', { type: 'button', title: c.text }, [
          `${c.value} (${Math.round(c.confidence * 100)}%)`,
        ]);
        button.addEventListener('click', () => {
          input.value = c.value;
          if (c.boundingBox) state.page = c.boundingBox.pageNum;
          setField(i, true);
        });
        return button;
      });
    const card = el('div', { class: 'field', 'data-field-id': field.fieldId, tabindex: '-1' }, [
      el('label', { for: field.fieldId, title: field.fieldId }, [fieldLabel(field.fieldId)]),
      input,
      ...(isTable(field.value) ? [tableEditor(field, input)] : []),
      el('div', { class: 'meta' }, [
        `${field.kind} · confidence ${Math.round(field.confidence * 100)}%`,
        field.value === null ? ' · not found' : '',
      ]),
      ...(alternatives.length
        ? [el('div', { class: 'alternatives' }, ['Alternatives: ', ...alternatives])]
        : []),
    ]);
    input.id = field.fieldId;
    return card;
  });
  const complete_ = el('button', { id: 'complete', class: 'primary', type: 'button' }, [
    'Complete (Ctrl+Enter)',
  ]);
  complete_.addEventListener('click', () => void complete());
  const side = el('section', { class: 'side' }, [
    el('div', { class: 'note', id: 'note' }, [task.note]),
    ...fieldNodes,
    complete_,
    el('p', { class: 'error', id: 'task-error', role: 'alert' }),
    el('p', { class: 'status', id: 'status', role: 'status' }),
  ]);
  const viewer = el('section', { class: 'viewer', id: 'viewer' });
  const prev = el('button', { type: 'button' }, ['◀ Page']);
  const next = el('button', { type: 'button' }, ['Page ▶']);
  prev.addEventListener('click', () => void goPage(state.page - 1));
  next.addEventListener('click', () => void goPage(state.page + 1));
  const zoomIn = el('button', { type: 'button' }, ['+']);
  const zoomOut = el('button', { type: 'button' }, ['−']);
  zoomIn.addEventListener('click', () => zoom(1.25));
  zoomOut.addEventListener('click', () => zoom(0.8));
  const back = el('button', { type: 'button' }, ['Tasks']);
  back.addEventListener('click', () => void showList());
  const toolbar = el('div', { class: 'toolbar' }, [
    back,
    el('span', {}, [`${file.name ?? file.fileId} · `]),
    prev,
    el('span', { id: 'page-label' }, [`page ${state.page} of ${file.pageCount}`]),
    next,
    zoomOut,
    zoomIn,
  ]);
  app.replaceChildren(el('div', {}, [toolbar, el('div', { class: 'task' }, [viewer, side])]));
  await renderPage();
  setField(state.field, true);
}

async function renderPage() {
  const view = state.view;
  const viewer = document.getElementById('viewer');
  if (!view || !viewer) return;
  const { file, fields } = view;
  const label = document.getElementById('page-label');
  if (label) label.textContent = `page ${state.page} of ${file.pageCount}`;
  const page = el('div', { class: 'page', id: 'page' });
  page.style.width = `${Math.round(100 * state.zoom)}%`;
  const image = el('img', {
    alt: `Page ${state.page}`,
    src: `api/files/${encodeURIComponent(file.fileId)}/pages/${state.page}?dpi=110`,
  });
  // Boxes are placed in percent of the page: they have their place once the image has its size.
  image.addEventListener('load', revealActive);
  page.append(image);
  fields.forEach((field, i) => {
    const box = field.boundingBox;
    if (!box || box.pageNum !== state.page) return;
    const mark = el('div', {
      class: `highlight${i === state.field ? ' active' : ''}`,
      'data-field-id': field.fieldId,
    });
    place(mark, box.topLeft.x, box.topLeft.y, box.bottomRight.x, box.bottomRight.y);
    page.append(mark);
  });
  const { tokens } = await api(`files/${encodeURIComponent(file.fileId)}/tokens?page=${state.page}`);
  for (const token of /** @type {Token[]} */ (tokens)) {
    const button = el('button', {
      class: 'token',
      type: 'button',
      title: token.text,
      'data-token-id': String(token.id),
      // Words are clicked, not tabbed through: Tab goes from field to field.
      tabindex: '-1',
    });
    place(button, token.box.x0, token.box.y0, token.box.x1, token.box.y1);
    button.addEventListener('click', (event) => takeToken(token, event.shiftKey));
    page.append(button);
  }
  viewer.replaceChildren(page);
}

/**
 * @param {HTMLElement} node
 * @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1
 */
function place(node, x0, y0, x1, y1) {
  node.style.left = `${x0 * 100}%`;
  node.style.top = `${y0 * 100}%`;
  node.style.width = `${Math.max(0.002, x1 - x0) * 100}%`;
  node.style.height = `${Math.max(0.002, y1 - y0) * 100}%`;
}

/**
 * The clicked word becomes the value of the field being corrected (with Shift: appended); the words
 * taken are remembered, so that the value keeps their box (typing afterwards forgets them).
 * @param {Token} token @param {boolean} append
 */
function takeToken(token, append) {
  const text = token.text;
  const field = state.view?.fields[state.field];
  if (!field) return;
  const input = /** @type {HTMLInputElement | null} */ (
    document.querySelector(`input[data-field-id="${CSS.escape(field.fieldId)}"]`)
  );
  if (!input) return;
  let value = text;
  if (field.kind === 'amount' || field.kind === 'integer')
    value = text
      .replace(/[^\d.,-]/g, '')
      .replace(/,(?=\d{3}\b)/g, '')
      .replace(',', '.');
  const before = append && input.value ? (state.taken.get(field.fieldId) ?? []) : [];
  input.value = append && input.value ? `${input.value} ${value}` : value;
  state.taken.set(field.fieldId, [...before, token.id]);
  input.focus();
}

/**
 * Makes a field the active one: its card and its box marked, its page shown and its box scrolled into
 * view; `focus` puts the cursor in its input, `focusCard` on its card (for j/k).
 * @param {number} index @param {boolean} focus @param {boolean} [focusCard]
 */
function setField(index, focus, focusCard = false) {
  const view = state.view;
  if (!view) return;
  state.field = Math.max(0, Math.min(view.fields.length - 1, index));
  const field = view.fields[state.field];
  document
    .querySelectorAll('.field')
    .forEach((node, i) => node.classList.toggle('active', i === state.field));
  document
    .querySelectorAll('.highlight')
    .forEach((node) =>
      node.classList.toggle('active', node.getAttribute('data-field-id') === field?.fieldId),
    );
  const box = field?.boundingBox;
  // The page's image reveals the box once it has loaded (renderPage); on the page shown, at once.
  if (box && box.pageNum !== state.page) void goPage(box.pageNum);
  else revealActive();
  if (focus && field) {
    const input = /** @type {HTMLInputElement | null} */ (
      document.querySelector(`input[data-field-id="${CSS.escape(field.fieldId)}"]`)
    );
    input?.focus();
  } else if (focusCard && field) {
    /** @type {HTMLElement | null} */ (
      document.querySelector(`.field[data-field-id="${CSS.escape(field.fieldId)}"]`)
    )?.focus();
  }
}

/** Scrolls the viewer (and the window) so that the active field's box is in view. */
function revealActive() {
  document.querySelector('.highlight.active')?.scrollIntoView({ block: 'center', inline: 'center' });
}

/** @param {number} page */
async function goPage(page) {
  const view = state.view;
  if (!view) return;
  state.page = Math.max(1, Math.min(view.file.pageCount, page));
  await renderPage();
}

/** @param {number} factor */
function zoom(factor) {
  state.zoom = Math.max(0.5, Math.min(4, state.zoom * factor));
  const page = document.getElementById('page');
  if (page) page.style.width = `${Math.round(100 * state.zoom)}%`;
}

/**
 * Completes the task shown. The values are checked by the server at once (a mistake is shown on the
 * task); the completion itself waits out the undo window (`u` or the Undo button takes it back and
 * reopens the task as it was left), then is sent. Meanwhile the next task opens.
 */
async function complete() {
  const view = state.view;
  if (!view) return;
  /** @type {Record<string, string | null>} */
  const values = {};
  /** @type {Record<string, number[]>} */
  const tokenIds = {};
  /** @type {Map<string, string>} */
  const typed = new Map();
  for (const field of view.fields) {
    const input = /** @type {HTMLInputElement | null} */ (
      document.querySelector(`input[data-field-id="${CSS.escape(field.fieldId)}"]`)
    );
    // Nothing the reviewer did not change is changed: a table is left out (kept as extracted), an
    // input left as it was confirms the value as extracted (not as the input shows it).
    const table = state.tables.get(field.fieldId);
    if (table) {
      values[field.fieldId] = /** @type {any} */ (table);
      continue;
    }
    if (!input || input.dataset.kept) continue;
    if (input.value === input.dataset.initial) {
      if (typeof field.value === 'string' || field.value === null) values[field.fieldId] = field.value;
      continue;
    }
    typed.set(field.fieldId, input.value);
    const value = input.value.trim();
    values[field.fieldId] = value === '' ? null : value;
    const taken = state.taken.get(field.fieldId);
    if (taken && value !== '') tokenIds[field.fieldId] = taken;
  }
  const error = document.getElementById('task-error');
  const path = `tasks/${encodeURIComponent(view.task.id)}`;
  const body = JSON.stringify({ values, tokenIds });
  try {
    // A completion still waiting is sent now: one undo at a time.
    await flushPending();
    await api(`${path}/check`, { method: 'POST', body });
  } catch (e) {
    if (error) error.textContent = /** @type {Error} */ (e).message;
    return;
  }
  const name = view.file.name ?? view.file.fileId;
  const edits = { values: typed, taken: new Map(state.taken), tables: new Map(state.tables) };
  pending = {
    taskId: view.task.id,
    name,
    body,
    edits,
    timer: setTimeout(() => void flushPending(), state.undoMs),
  };
  if (state.undoMs === 0) await flushPending();
  else showToast(`Task completed: ${name}.`, true);
  state.tasks = state.tasks.filter((t) => t.id !== view.task.id);
  if (state.tasks.length === 0) {
    state.view = null;
    app.replaceChildren(
      el('p', { class: 'done', id: 'all-done' }, [`Task completed: ${name}. No open tasks left.`]),
    );
    return;
  }
  await openTask(Math.min(state.selected, state.tasks.length - 1));
  const status = document.getElementById('status');
  if (status) status.textContent = `Task completed: ${name}.`;
}

/** The completion waiting out its undo window. @type {Pending | null} */
let pending = null;

/** Sends the waiting completion now (its window ended, another task is completed, or the page goes). */
async function flushPending() {
  const p = pending;
  if (!p) return;
  pending = null;
  clearTimeout(p.timer);
  try {
    await api(`tasks/${encodeURIComponent(p.taskId)}/complete`, { method: 'POST', body: p.body });
    showToast(`Saved: ${p.name}.`, false);
  } catch (e) {
    // Not completed (completed by someone else meanwhile, signed out): the reviewer is told.
    showToast(`Not saved: ${p.name}: ${/** @type {Error} */ (e).message}`, false, true);
  }
}

/** Takes back the waiting completion: its task opens again as the reviewer left it. */
async function undo() {
  const p = pending;
  if (!p) return;
  pending = null;
  clearTimeout(p.timer);
  showToast(`Undone: ${p.name} is open again.`, false);
  const { tasks } = await api('tasks');
  state.tasks = tasks;
  const index = state.tasks.findIndex((t) => t.id === p.taskId);
  if (index >= 0) await openTask(index, p.edits);
  else await showList();
}

/**
 * Says what happened in the toast (a live region); `undoable` adds the Undo button.
 * @param {string} text @param {boolean} undoable @param {boolean} [failed]
 */
function showToast(text, undoable, failed = false) {
  const children = [el('span', {}, [text])];
  if (undoable) {
    const button = el('button', { type: 'button', id: 'undo' }, ['Undo (u)']);
    button.addEventListener('click', () => void undo());
    children.push(button);
  }
  toast.replaceChildren(...children);
  toast.className = failed ? 'toast error' : 'toast';
  toast.hidden = false;
}

/** Words that are not written as the field names spell them. */
const LABEL_WORDS = /** @type {Record<string, string>} */ ({
  lineitems: 'line items',
  no: 'number',
  abn: 'ABN',
  bsb: 'BSB',
  iban: 'IBAN',
  bic: 'BIC',
  crn: 'CRN',
  bpay: 'BPAY',
});

/**
 * A field's label for people: `svc.invoice.subTotal` is "Invoice sub total", `svc.document.supplierABN`
 * "Document supplier ABN" (the id stays in the title).
 * @param {string} fieldId
 */
function fieldLabel(fieldId) {
  const words = fieldId
    .split('.')
    .slice(-2)
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/\s+/)
    .map(
      (w) => LABEL_WORDS[w.toLowerCase()] ?? (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase()),
    );
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

document.addEventListener('keydown', (event) => {
  // Handled where it happened (a field's own keys).
  if (event.defaultPrevented) return;
  // Ctrl+Enter completes from anywhere, a table's cells included.
  if (state.view && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void complete();
    return;
  }
  const target = /** @type {HTMLElement} */ (event.target);
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  // u takes back the last completion while its window lasts, wherever the reviewer is.
  if (event.key === 'u' && pending && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    void undo();
    return;
  }
  // Enter on a button presses it.
  if (target instanceof HTMLButtonElement && event.key === 'Enter') return;
  if (state.view) {
    // j/k move between fields without entering their inputs (an input would take the next j as
    // text); Enter edits the active field.
    if (event.key === 'j') setField(state.field + 1, false, true);
    else if (event.key === 'k') setField(state.field - 1, false, true);
    else if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) setField(state.field, true);
    else if (event.key === 'n') void openTask(state.selected + 1);
    else if (event.key === 'p') void openTask(Math.max(0, state.selected - 1));
    else if (event.key === '+' || event.key === '=') zoom(1.25);
    else if (event.key === '-') zoom(0.8);
    else if (event.key === 'PageDown') void goPage(state.page + 1);
    else if (event.key === 'PageUp') void goPage(state.page - 1);
    else if (event.key === 'Escape') void showList();
    else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void complete();
    else return;
    event.preventDefault();
  } else if (state.tasks.length > 0 && document.querySelector('table.tasks')) {
    if (event.key === 'j' || event.key === 'ArrowDown')
      state.selected = Math.min(state.tasks.length - 1, state.selected + 1);
    else if (event.key === 'k' || event.key === 'ArrowUp') state.selected = Math.max(0, state.selected - 1);
    else if (event.key === 'Enter') return void openTask(state.selected);
    else return;
    event.preventDefault();
    document
      .querySelectorAll('table.tasks tbody tr')
      .forEach((row, i) => row.classList.toggle('selected', i === state.selected));
  }
});

signOut.addEventListener('click', async () => {
  await flushPending();
  await api('logout', { method: 'POST' }).catch(() => undefined);
  state.csrf = '';
  showLogin();
});
passwordLink.addEventListener('click', () => showPassword());
reviewersLink.addEventListener('click', () => void showReviewers());

// Leaving the page sends a completion still in its undo window (keepalive outlives the page).
window.addEventListener('pagehide', () => {
  const p = pending;
  if (!p) return;
  pending = null;
  clearTimeout(p.timer);
  void fetch(`api/tasks/${encodeURIComponent(p.taskId)}/complete`, {
    method: 'POST',
    body: p.body,
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-csrf-token': state.csrf },
  }).catch(() => undefined);
});

(async () => {
  try {
    signedIn(await api('session'));
    await showList();
  } catch {
    showLogin();
  }
})();
