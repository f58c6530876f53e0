/**
 * The API by hand: the commands `auth`, `api` and `insights` send requests with no plan, through
 * a client opened with the options every run's clients share (client-options.ts: the run's clock,
 * its request deadline, the `--debug` trace, the notices of long waits). The
 * command line says what to send and prints the answers; it never builds a client itself.
 */
import { AdsApi } from '../api/ads-api.js';
import { ApiClient, type ClientOptions, type Params } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type * as W from '../api/generated/wire.js';
import type { OAuthCredentials } from '../api/signer.js';
import { runClientOptions, type ClientRun } from './client-options.js';

/** Where a command by hand sends its requests, and what they carry. */
export type HandRun = ClientRun;

/** What an error adds for the run's settings (`ClientOptions.hints`, e.g. `runHints`). */
type Hints = ClientOptions['hints'];

/** `body` with a client of `run` for `credentials`, closed after. */
async function withClient<T>(run: HandRun, credentials: OAuthCredentials, hints: Hints, body: (client: ApiClient) => Promise<T>): Promise<T> {
  const client = new ApiClient({ ...runClientOptions(run), credentials, ...(hints === undefined ? {} : { hints }) });
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** A request typed by hand: parameters in the query or the form body, and a JSON body. */
interface RequestByHand {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the advertising base URL. */
  path: string;
  params: Params;
  json?: unknown;
}

/**
 * The answer to a request by hand: its status and body as they came, or, when the service
 * refused it or never answered, the one-line failure (`ApiError.describe`) and the service's
 * error envelope when it sent one.
 */
type HandAnswer = { status: number; body: unknown } | { failure: string; envelope?: object };

/** Sends `request` signed with `credentials`; errors of the service come back as the answer. */
export async function sendByHand(run: HandRun, credentials: OAuthCredentials, hints: Hints, request: RequestByHand): Promise<HandAnswer> {
  return withClient(run, credentials, hints, async (client) => {
    try {
      const { status, body } = await client.send({
        method: request.method,
        path: request.path,
        params: request.params,
        ...(request.json === undefined ? {} : { json: request.json }),
        endpoint: `api ${request.path}`,
      });
      return { status, body };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const envelope = typeof error.body === 'object' && error.body !== null ? error.body : undefined;
      return { failure: error.describe(), ...(envelope === undefined ? {} : { envelope }) };
    }
  });
}

/** The user whose credentials sign, and its accounts with the permissions it has on each. */
interface UserAccounts {
  /** Undefined when the user has no account. */
  userId: string | undefined;
  accounts: Array<{ id: string; name: string; permissions: readonly string[] }>;
}

/** The accounts `credentials` reach and the user's access to each (`auth whoami`). */
export async function whoami(run: HandRun, credentials: OAuthCredentials, hints: Hints): Promise<UserAccounts> {
  return withClient(run, credentials, hints, async (client) => {
    const api = new AdsApi(client);
    const accounts = await api.accounts();
    const access = await Promise.all(accounts.map((a) => api.userAccess(a.id)));
    return { userId: access[0]?.user_id, accounts: accounts.map((a, i) => ({ id: a.id, name: a.name, permissions: access[i]!.permissions })) };
  });
}

/** The keyword insights lookup (`insights keywords`), its limits already checked by the caller. */
export async function keywordInsights(run: HandRun, credentials: OAuthCredentials, hints: Hints, query: Parameters<AdsApi['keywordInsights']>[0]): Promise<W.KeywordInsights> {
  return withClient(run, credentials, hints, (client) => new AdsApi(client).keywordInsights(query));
}
