/**
 * The OAuth steps of `adsctl auth` and `adsctl api --as` (Part A's token endpoints), each sent with
 * the client options of the run by hand (`runClientOptions`). The PIN is the command line's to
 * ask for, between `startLogin` and `finishLogin`. Errors of the service are thrown (`runFailure`
 * says them).
 */
import { loginAsSeededUser } from '../api/emulator-login.js';
import { accessToken, bearerToken, invalidateBearer, invalidateToken, requestToken } from '../api/oauth-flow.js';
import type { OAuthCredentials } from '../api/signer.js';
import type { HandRun } from './by-hand.js';
import { runClientOptions } from './client-options.js';

/** The application's keys. */
type Consumer = { consumerKey: string; consumerSecret: string };

/** The PIN flow's first step: a request token, and the URL where the user approves it and reads the PIN. */
export function startLogin(run: HandRun, consumer: Consumer): ReturnType<typeof requestToken> {
  return requestToken(runClientOptions(run), consumer);
}

/** The PIN flow's last step: the approved request token and the PIN exchanged for the user's access token. */
export function finishLogin(run: HandRun, consumer: Consumer, pending: Awaited<ReturnType<typeof requestToken>>, pin: string): ReturnType<typeof accessToken> {
  return accessToken(runClientOptions(run), consumer, pending, pin);
}

/** The application-only bearer token. */
export function obtainBearer(run: HandRun, consumer: Consumer): Promise<string> {
  return bearerToken(runClientOptions(run), consumer);
}

/** Revokes the access token `credentials` carry. */
export async function revokeToken(run: HandRun, credentials: OAuthCredentials): Promise<void> {
  await invalidateToken(runClientOptions(run), credentials);
}

/** Revokes the bearer token `bearer`, signed with the application owner's credentials. */
export async function revokeBearer(run: HandRun, owner: OAuthCredentials, bearer: string): Promise<void> {
  await invalidateBearer(runClientOptions(run), owner, bearer);
}

/**
 * The credentials and id of the emulator's seeded user `screenName` for the application
 * `consumer` (`api --as`); undefined when the emulator has no such user.
 */
export function loginSeededUser(run: HandRun, consumer: Consumer, screenName: string): ReturnType<typeof loginAsSeededUser> {
  return loginAsSeededUser(runClientOptions(run), consumer, screenName);
}
