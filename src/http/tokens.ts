import { errors, jwtVerify, SignJWT } from 'jose';
import { DocexError } from '../core/errors.js';
import { companyIdOf } from '../core/company-id.js';

export interface TokenOptions {
  /** HS256 key, at least 32 bytes (a string is taken as UTF-8). Default: random, so tokens end with the handler. */
  secret?: Uint8Array | string;
  /** Lifetime of an access token. Default 3600 s. */
  ttlSeconds?: number;
  issuer?: string;
  audience?: string;
}

/** Signed access tokens (JWT, HS256) naming the account: `acc` (account id), `company_id`, `exp`. */
export class TokenService {
  readonly #key: Uint8Array;
  readonly ttlSeconds: number;
  readonly #issuer: string;
  readonly #audience: string;

  constructor(options: TokenOptions = {}) {
    const secret = options.secret ?? crypto.getRandomValues(new Uint8Array(32));
    this.#key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
    if (this.#key.byteLength < 32)
      throw new DocexError('INVALID_ARGUMENT', 'The token secret needs at least 32 bytes.');
    this.ttlSeconds = options.ttlSeconds ?? 3600;
    this.#issuer = options.issuer ?? 'docex';
    this.#audience = options.audience ?? 'docex';
  }

  async issue(accountId: string, clientId: string): Promise<string> {
    return new SignJWT({ acc: accountId, company_id: companyIdOf(accountId) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(clientId)
      .setIssuer(this.#issuer)
      .setAudience(this.#audience)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.#key);
  }

  /**
   * The account (and the client it was issued to) of a valid bearer token; UNAUTHORIZED for a missing,
   * expired, forged or foreign one.
   */
  async verify(authorization: string | null): Promise<{ accountId: string; clientId: string }> {
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization ?? '');
    if (!match)
      throw new DocexError('UNAUTHORIZED', 'A bearer token is required (Authorization: Bearer <token>).');
    try {
      const { payload } = await jwtVerify(match[1]!, this.#key, {
        algorithms: ['HS256'],
        issuer: this.#issuer,
        audience: this.#audience,
        requiredClaims: ['exp', 'acc'],
      });
      if (typeof payload.acc !== 'string' || payload.acc === '') throw new Error('no account');
      return { accountId: payload.acc, clientId: typeof payload.sub === 'string' ? payload.sub : '' };
    } catch (error) {
      const expired = error instanceof errors.JWTExpired;
      throw new DocexError(
        'UNAUTHORIZED',
        expired ? 'The access token has expired.' : 'The access token is not valid.',
      );
    }
  }
}
