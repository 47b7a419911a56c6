import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

import type { WebhookAnswer, WebhookRequest, WebhookSender } from '../../ports/webhook-sender.js';
import { isLoopbackName, isPrivateAddress } from '../../webhooks/targets.js';

/** Bytes of an answer's body read (and dropped) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A resolver for connections that refuses private addresses: checked on the addresses the connection
 * will use, so a name cannot resolve to a public address when checked and a private one when used.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused || addresses.length === 0) {
      const reason = Object.assign(
        new Error(`the target ${hostname} resolves to a private address (${refused?.address ?? 'none'})`),
        { code: 'ETARGETREFUSED' },
      );
      return callback(reason, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** The WebhookSender on node:http and node:https. */
export function createNodeWebhookSender(): WebhookSender {
  return {
    send(request: WebhookRequest, signal: AbortSignal): Promise<WebhookAnswer> {
      return new Promise<WebhookAnswer>((resolve) => {
        let url: URL;
        try {
          url = new URL(request.url);
        } catch {
          resolve({ error: 'the url is not valid' });
          return;
        }
        const host = url.hostname.replace(/^\[|\]$/g, '');
        if (
          !request.allowPrivateTargets &&
          (isLoopbackName(host) || (isIP(host) !== 0 && isPrivateAddress(host)))
        ) {
          resolve({ error: `the target ${host} is a private or loopback address` });
          return;
        }
        let settled = false;
        const finish = (answer: WebhookAnswer): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        };
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const outgoing = send(url, {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          ...(request.allowPrivateTargets ? {} : { lookup: guardedLookup as never }),
          agent: false,
        });
        const timer = setTimeout(() => {
          finish({ error: `no answer within ${request.timeoutMs} ms` });
          outgoing.destroy();
        }, request.timeoutMs);
        const onAbort = (): void => {
          finish({ error: 'the attempt was cut short (the engine is closing)' });
          outgoing.destroy();
        };
        if (signal.aborted) {
          onAbort();
          return;
        }
        signal.addEventListener('abort', onAbort, { once: true });
        outgoing.on('response', (answer: IncomingMessage) => {
          const status = answer.statusCode ?? 0;
          let read = 0;
          answer.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) answer.destroy();
          });
          answer.on('error', () => finish({ status }));
          answer.on('close', () => finish({ status }));
          answer.on('end', () => finish({ status }));
        });
        outgoing.on('error', (error: NodeJS.ErrnoException) => {
          finish({
            error:
              error.code === 'ETARGETREFUSED' ? error.message : `${error.code ?? 'error'}: ${error.message}`,
          });
        });
        outgoing.end(request.body);
      });
    },
  };
}
