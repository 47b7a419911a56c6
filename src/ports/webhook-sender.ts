/** One attempt to deliver a webhook. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt (connecting, sending, the answer's head) must end within this. */
  timeoutMs: number;
  /** Whether loopback and private addresses may be called (otherwise refused when connecting). */
  allowPrivateTargets: boolean;
}

/** How an attempt ended: the answer's HTTP status, or why there was none. */
export type WebhookAnswer = { status: number } | { error: string };

/**
 * Sends webhook requests: a POST of the body with the headers, redirects never followed (a 3xx is an
 * answer like any other), the address the name resolves to checked when connecting.
 * Contract: `send` never rejects; an aborted signal ends the attempt with an error answer.
 */
export interface WebhookSender {
  send(request: WebhookRequest, signal: AbortSignal): Promise<WebhookAnswer>;
}
