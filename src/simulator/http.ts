// The simulator's HTTP side: the admin REST client (Basic auth) and a reader
// agent's client (Authorization: Agent base64(reader:secret)), both over
// fetch with a time-out. Answers are returned, not thrown: callers decide
// what a status means.

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type Transport = (method: string, url: string, headers: Record<string, string>, body: string | undefined) => Promise<HttpAnswer>;

export const fetchTransport = (timeoutMs = 10_000): Transport => async (method, url, headers, body) => {
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text.length) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed };
};

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly authorization: string,
    private readonly transport: Transport = fetchTransport(),
  ) {}

  request(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    const headers: Record<string, string> = { Authorization: this.authorization, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return this.transport(method, `${this.baseUrl}${path}`, headers, body === undefined ? undefined : JSON.stringify(body));
  }
}

export const basicAuth = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
export const agentAuth = (reader: string, secret: string): string => `Agent ${Buffer.from(`${reader}:${secret}`).toString('base64')}`;

/** The message of an error answer (`{message}`), or the status. */
export function describeAnswer(a: HttpAnswer): string {
  const msg = typeof a.body === 'object' && a.body !== null && 'message' in a.body ? String((a.body as { message: unknown }).message) : typeof a.body === 'string' ? a.body.slice(0, 200) : '';
  return `HTTP ${a.status}${msg ? `: ${msg}` : ''}`;
}

export class HttpError extends Error {
  constructor(
    readonly what: string,
    readonly answer: HttpAnswer,
  ) {
    super(`${what} failed: ${describeAnswer(answer)}`);
    this.name = 'HttpError';
  }
}

export const enc = encodeURIComponent;
