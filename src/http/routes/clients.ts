import { companyIdOf } from '../../core/company-id.js';
import { DocexError } from '../../core/errors.js';
import { readForm, readJson } from '../body.js';
import { errors, ok, TOKEN_REQUEST } from '../openapi-schemas.js';
import { remoteAddressOf } from '../remote-address.js';
import { errorResponse, json } from '../responses.js';
import type { ApiRoute, OperationDoc, RouteContext } from '../routing.js';
import { signInKeys, tooManySignIns } from '../sign-in-limiter.js';

/** API clients: access tokens (OAuth 2.0 client credentials) and the company of a client. */

const TOKEN_DOC: OperationDoc = {
  summary: 'Access token (OAuth 2.0 client credentials; client by HTTP Basic, form fields or a JSON body)',
  requestBody: {
    content: {
      'application/x-www-form-urlencoded': { schema: TOKEN_REQUEST },
      'application/json': { schema: TOKEN_REQUEST },
    },
  },
  responses: {
    ...ok({
      type: 'object',
      required: ['access_token', 'token_type', 'expires_in'],
      properties: {
        access_token: { type: 'string' },
        token_type: { const: 'Bearer' },
        expires_in: { type: 'integer' },
      },
    }),
    ...errors(400, 401),
  },
};

/**
 * OAuth 2.0 client credentials: a form (RFC 6749) or, as older clients send it, a JSON body
 * `{client_id, client_secret, grant_type, audience}`; the client by HTTP Basic or in the body.
 * `audience` is accepted and not checked (docex has one audience).
 */
async function issueToken({
  request,
  engine,
  tokens,
  signIns,
  maxJsonBytes,
}: RouteContext): Promise<Response> {
  const type = request.headers.get('content-type') ?? '';
  let fields: { get(name: string): string | null };
  if (/^application\/json\b/i.test(type)) {
    const body = (await readJson(request, maxJsonBytes)) as Record<string, unknown>;
    fields = { get: (name) => (typeof body[name] === 'string' ? (body[name] as string) : null) };
  } else {
    fields = await readForm(request, maxJsonBytes);
  }
  if (fields.get('grant_type') !== 'client_credentials') {
    throw new DocexError(
      'UNSUPPORTED_GRANT_TYPE',
      'Only grant_type=client_credentials is supported (in a form or a JSON body).',
    );
  }
  const basic = basicCredentials(request.headers.get('authorization'));
  const clientId = basic?.id ?? fields.get('client_id');
  const secret = basic?.secret ?? fields.get('client_secret');
  const keys = signInKeys(clientId, remoteAddressOf(request));
  const wait = signIns.retryAfter(keys);
  if (wait !== undefined) return tooManySignIns(wait);
  const accountId = clientId && secret ? await engine.authenticateClient(clientId, secret) : undefined;
  if (accountId && clientId) signIns.succeeded(`client:${clientId.slice(0, 256)}`);
  else signIns.failed(keys);
  if (!accountId || !clientId) {
    const failed = errorResponse(new DocexError('INVALID_CLIENT', 'The client id or secret is not valid.'));
    // RFC 6749 5.2: a client that authenticated with HTTP Basic is challenged with Basic.
    if (basic) failed.headers.set('www-authenticate', 'Basic realm="docex"');
    return failed;
  }
  return json(
    {
      access_token: await tokens.issue(accountId, clientId),
      token_type: 'Bearer',
      expires_in: tokens.ttlSeconds,
    },
    200,
    { pragma: 'no-cache' },
  );
}

export const clientRoutes: ApiRoute[] = [
  // Logs and metrics have always named both token paths `/oauth2?/token`.
  {
    method: 'POST',
    path: '/oauth2/token',
    label: '/oauth2?/token',
    auth: 'none',
    doc: TOKEN_DOC,
    handle: issueToken,
  },
  // The path older clients of the original service use (docs/compatibility.md).
  {
    method: 'POST',
    path: '/oauth/token',
    label: '/oauth2?/token',
    auth: 'none',
    doc: { ...TOKEN_DOC, summary: 'The same as /oauth2/token (older clients)' },
    handle: issueToken,
  },
  {
    method: 'GET',
    path: '/app/company/byclientid/{clientId}',
    auth: 'bearer',
    doc: {
      summary: "The company (account) of one of the caller's own API clients",
      responses: {
        ...ok({
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string' },
            clientId: { type: 'string' },
          },
        }),
        ...errors(401, 404),
      },
    },
    async handle({ engine, params, accountId }) {
      const client = await engine.findClient(params.clientId!, { accountId });
      return json({ id: companyIdOf(client.accountId), name: client.accountId, clientId: client.clientId });
    },
  },
];

/** `Authorization: Basic base64(id:secret)` (RFC 6749 2.3.1: both form-urlencoded first). */
function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}
