/** Per-account settings the engine enforces. */
export interface AccountLimits {
  /** Largest upload in bytes. Default 20 MB. */
  maxFileBytes: number;
  /** Most pages in a document. Default 16. */
  maxPages: number;
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
    const next: AccountSettings = { ...current, limits: { ...current.limits, ...settings.limits } };
    if (settings.locale !== undefined) next.locale = settings.locale;
    if (settings.subscriptions !== undefined) next.subscriptions = [...settings.subscriptions];
    this.#settings.set(accountId, next);
    return next;
  }
}
