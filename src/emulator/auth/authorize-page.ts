/**
 * Step 2 of the three-legged flow, as plain HTML over HTTP (no browser needed):
 * `GET /oauth/authorize` and `GET /oauth/authenticate` show the approval form for a pending
 * request token; submitting it (`POST /oauth/authorize` with `oauth_token`, `screen_name` and
 * `approve` or `deny`) either redirects to the callback with `oauth_token` and `oauth_verifier`
 * (`denied` when refused) or, for `oob`, shows the 7-digit PIN in `<code id="oauth_pin">`.
 * The emulator has no passwords: approving picks the seeded user with that screen name and
 * remembers the login in a session cookie, the "logged-in user" of `/oauth/authenticate`, which
 * skips the form when that user already granted the application (unless `force_login`).
 */
import { WireError } from '../errors.js';
import type { RawResponse } from '../raw-response.js';
import type { ParsedRequest } from '../request.js';
import type { Row } from '../store/row.js';
import { htmlResponse, redirectResponse, renderAuthorizeForm, renderMessage, renderPin } from './authorize-html.js';
import { percentEncode } from './oauth.js';
import { chargeToken, nowSeconds, param, randomAlnum, randomDigits, type TokenDeps } from './token-context.js';
import { requestTokenExpired } from './request-token.js';

/** The cookie that carries the emulator's logged-in user between authorization pages. */
const SESSION_COOKIE = 'adsctl_emulator_session';

/** Which step-2 page was asked for. */
type AuthorizeFlow = 'authorize' | 'authenticate';

interface Pending {
  token: Row;
  app: Row;
  headers: Record<string, string>;
}

const INVALID_TOKEN =
  'The request token for this page is invalid. It may have already been used, or expired because it is too old. Please go back to the site or application that sent you here and try again.';

/** The pending request token named by `oauth_token`, charged to its application, or the page refusing it. */
function pending(deps: TokenDeps, req: ParsedRequest, endpoint: string): Pending | RawResponse {
  const value = param(req, 'oauth_token');
  if (value === undefined || value === '') return htmlResponse(400, renderMessage('Invalid request', 'The oauth_token parameter is missing.'));
  const token = deps.store.get('request_token', value);
  const app = token === undefined ? undefined : deps.store.get('app', String(token.ext['consumer_key']));
  if (token === undefined || app === undefined || token.ext['revoked'] === true || token.ext['verifier'] !== null || requestTokenExpired(token, nowSeconds(deps))) {
    return htmlResponse(401, renderMessage('Whoa there!', INVALID_TOKEN));
  }
  try {
    return { token, app, headers: chargeToken(deps, endpoint, app.id) };
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return htmlResponse(429, renderMessage('Rate limit exceeded', 'Too many requests; try again later.'), error.headers);
  }
}

const isResponse = (x: Pending | RawResponse): x is RawResponse => 'status' in x;

const appName = (app: Row): string => String(app.rec['name'] ?? app.id);

function sessionUser(deps: TokenDeps, req: ParsedRequest): Row | undefined {
  const cookies = req.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name !== SESSION_COOKIE || value === undefined) continue;
    try {
      return deps.store.get('user', decodeURIComponent(value));
    } catch {
      return undefined; // not valid percent-encoding: no session of ours
    }
  }
  return undefined;
}

function granted(user: Row, app: Row): boolean {
  const apps = user.ext['authorized_apps'];
  return Array.isArray(apps) && apps.includes(app.id);
}

function withQuery(url: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const query = pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

/** Authorizes the request token for `user`: a verifier, a grant, a session, then the callback or PIN. */
function approve(deps: TokenDeps, p: Pending, user: Row): RawResponse {
  const callback = String(p.token.ext['callback']);
  const oob = callback === 'oob';
  const verifier = oob ? randomDigits(7) : randomAlnum(32);
  deps.store.transaction(() => {
    deps.store.update(p.token, {}, { user_id: user.id, verifier });
    const apps = Array.isArray(user.ext['authorized_apps']) ? (user.ext['authorized_apps'] as string[]) : [];
    if (!apps.includes(p.app.id)) deps.store.update(user, {}, { authorized_apps: [...apps, p.app.id] });
  });
  const headers = { ...p.headers, 'set-cookie': `${SESSION_COOKIE}=${encodeURIComponent(user.id)}; Path=/; HttpOnly; SameSite=Lax` };
  if (oob) return htmlResponse(200, renderPin(appName(p.app), verifier), headers);
  return redirectResponse(withQuery(callback, [['oauth_token', p.token.id], ['oauth_verifier', verifier]]), headers);
}

/** Refuses the request token for good; the callback learns of it through `denied`. */
function deny(deps: TokenDeps, p: Pending): RawResponse {
  deps.store.transaction(() => deps.store.update(p.token, {}, { revoked: true, denied: true }));
  const callback = String(p.token.ext['callback']);
  if (callback === 'oob') {
    return htmlResponse(200, renderMessage('Access denied', `You have not granted access to ${appName(p.app)}.`), p.headers);
  }
  return redirectResponse(withQuery(callback, [['denied', p.token.id]]), p.headers);
}

/** `GET /oauth/authorize` and `GET /oauth/authenticate`. */
export function authorizePage(deps: TokenDeps, req: ParsedRequest, flow: AuthorizeFlow): RawResponse {
  if (param(req, 'oauth_callback') !== undefined) {
    return htmlResponse(400, renderMessage('Invalid request', 'oauth_callback is not accepted here: send it to POST /oauth/request_token.'));
  }
  const p = pending(deps, req, flow);
  if (isResponse(p)) return p;
  const forceLogin = ['true', '1'].includes(param(req, 'force_login') ?? '');
  const session = forceLogin ? undefined : sessionUser(deps, req);
  if (flow === 'authenticate') {
    if (p.app.ext['sign_in_enabled'] !== true) {
      return htmlResponse(403, renderMessage('Sign in not enabled', `${appName(p.app)} is not set up for signing in; use /oauth/authorize.`), p.headers);
    }
    if (session !== undefined && granted(session, p.app)) return approve(deps, p, session);
  }
  const screenName = param(req, 'screen_name') ?? (session === undefined ? '' : String(session.rec['screen_name']));
  return htmlResponse(200, renderAuthorizeForm({ appName: appName(p.app), oauthToken: p.token.id, screenName }), p.headers);
}

/** `POST /oauth/authorize`: the submitted approval form. */
export function submitAuthorization(deps: TokenDeps, req: ParsedRequest): RawResponse {
  const p = pending(deps, req, 'authorize_submit');
  if (isResponse(p)) return p;
  if (param(req, 'deny') !== undefined) return deny(deps, p);
  const screenName = (param(req, 'screen_name') ?? '').trim().replace(/^@/, '');
  const form = (error: string): string => renderAuthorizeForm({ appName: appName(p.app), oauthToken: p.token.id, screenName, error });
  if (param(req, 'approve') === undefined) return htmlResponse(400, form('Choose "Authorize app" or "Cancel".'), p.headers);
  const user = screenName === '' ? undefined : deps.store.table('user').under('screen_name', screenName.toLowerCase())[0];
  if (user === undefined) return htmlResponse(200, form(`There is no user with the screen name "${screenName}".`), p.headers);
  return approve(deps, p, user);
}
