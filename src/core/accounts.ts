import { DocexError } from './errors.js';
/** Per-account settings the engine enforces. */
export interface AccountLimits {
  /** Largest upload in bytes. Default 20 MB. */
  maxFileBytes: number;
  /** Most pages in a document. Default 16. */
  maxPages: number;
  /** Pages processed per UTC day (jobs' `usage.pages`) before new work is refused QUOTA_EXCEEDED. Default none. */
  pagesPerDay?: number;
  /** Pages processed per UTC calendar month before new work is refused QUOTA_EXCEEDED. Default none. */
  pagesPerMonth?: number;
}

export interface AccountSettings {
  limits: AccountLimits;
  /** Locale of the account's documents (for example en-AU, de-DE), used to read dates. */
  locale?: string;
  /**
   * Products and fieldsets the account may use (`*`, `invoices`, `invoices:2`, `svc.invoice`).
   * Absent: every product of the catalogue.
   */
  subscriptions?: string[];
}

export const DEFAULT_LIMITS: AccountLimits = { maxFileBytes: 20 * 1024 * 1024, maxPages: 16 };

/** The accounts of one engine: settings by id, with defaults for ids never configured. */
export class AccountDirectory {
  readonly #settings = new Map<string, AccountSettings>();
  readonly #defaults: AccountLimits;

  constructor(defaults: Partial<AccountLimits> = {}) {
    checkLimits(defaults);
    this.#defaults = { ...DEFAULT_LIMITS, ...defaults };
  }

  has(accountId: string): boolean {
    return this.#settings.has(accountId);
  }

  get(accountId: string): AccountSettings {
    return this.#settings.get(accountId) ?? { limits: { ...this.#defaults } };
  }

  configure(
    accountId: string,
    settings: { limits?: Partial<AccountLimits>; locale?: string; subscriptions?: string[] | undefined },
  ): AccountSettings {
    const current = this.get(accountId);
    if (settings.limits) checkLimits(settings.limits);
    const next: AccountSettings = { ...current, limits: { ...current.limits, ...settings.limits } };
    if (settings.locale !== undefined) next.locale = settings.locale;
    if (settings.subscriptions !== undefined) next.subscriptions = [...settings.subscriptions];
    this.#settings.set(accountId, next);
    return next;
  }
}

/** Every limit given is a whole number (0 or more); a quota given as undefined is removed. */
function checkLimits(limits: Partial<AccountLimits>): void {
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined && (name === 'pagesPerDay' || name === 'pagesPerMonth')) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new DocexError('INVALID_ARGUMENT', `The limit ${name} must be a whole number, 0 or more.`, {
        details: [{ path: `/limits/${name}`, message: 'must be a whole number, 0 or more' }],
      });
    }
  }
}
