/**
 * Where credentials come from: the environment (docs/architecture.md) first, then the file `adsctl auth
 * login` writes (`$XDG_CONFIG_HOME/adsctl/credentials.json` or `~/.config/adsctl/...`, mode 0600),
 * one profile per endpoint. Nothing here ever prints a secret.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { OAuthCredentials } from '../api/signer.js';
import { EnvironmentError } from '../diag/environment-error.js';
import { redactUserinfo } from '../diag/redact.js';

interface Profile {
  consumer_key: string;
  consumer_secret: string;
  access_token?: string;
  access_token_secret?: string;
  user_id?: string;
  screen_name?: string;
  bearer_token?: string;
}

interface CredentialsFile {
  profiles: Record<string, Profile>;
}

/** The credentials file path for this environment. */
function credentialsPath(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_CONFIG_HOME'] !== undefined && env['XDG_CONFIG_HOME'] !== '' ? env['XDG_CONFIG_HOME'] : join(env['HOME'] ?? homedir(), '.config');
  return join(base, 'adsctl', 'credentials.json');
}

/** Whether the prefix of `text` of length `n` holds a fault (not merely ends early). */
function faultWithin(text: string, n: number): boolean {
  try {
    JSON.parse(text.slice(0, n));
    return false;
  } catch (error) {
    return !/end of JSON input|Unterminated/i.test(error instanceof Error ? error.message : '');
  }
}

/**
 * Where JSON.parse stops in `text`, as ` at line L, column C`: the shortest prefix that holds the
 * fault, found by halving — the parser's own message quotes the text around it instead.
 */
function positionOf(text: string): string {
  if (!faultWithin(text, text.length)) return '';
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (faultWithin(text, mid)) hi = mid;
    else lo = mid;
  }
  const before = text.slice(0, hi - 1).split('\n');
  return ` at line ${before.length}, column ${(before[before.length - 1]?.length ?? 0) + 1}`;
}

function readFile(path: string): CredentialsFile {
  if (!existsSync(path)) return { profiles: {} };
  const text = readFileSync(path, 'utf8');
  let parsed: Partial<CredentialsFile>;
  try {
    parsed = JSON.parse(text) as Partial<CredentialsFile>;
  } catch {
    // the parser's message quotes the text around the fault, which may be a secret
    throw new EnvironmentError(`${path} is not valid JSON${positionOf(text)}; correct it, or remove it and run adsctl auth login again`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new EnvironmentError(`${path} is not a credentials file (a JSON object with profiles); remove it and run adsctl auth login again`);
  return { profiles: parsed.profiles ?? {} };
}

/** The stored profile of an endpoint, if any. */
export function readProfile(env: NodeJS.ProcessEnv, endpoint: string): Profile | undefined {
  return readFile(credentialsPath(env)).profiles[endpoint];
}

/** Stores (or with `undefined`, removes) the profile of an endpoint; the file stays mode 0600. */
export function writeProfile(env: NodeJS.ProcessEnv, endpoint: string, profile: Profile | undefined): string {
  const path = credentialsPath(env);
  const file = readFile(path);
  if (profile === undefined) delete file.profiles[endpoint];
  else file.profiles[endpoint] = profile;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  return path;
}

/** Where each half of a set of credentials came from: the environment, or the profile stored in the file. */
type From = 'environment' | 'file';

/** Consumer credentials, and where they came from: environment first, then the stored profile. */
function consumerWithOrigin(env: NodeJS.ProcessEnv, endpoint: string): { consumerKey: string; consumerSecret: string; from: From } | undefined {
  const key = env['ADSCTL_CONSUMER_KEY'];
  const secret = env['ADSCTL_CONSUMER_SECRET'];
  if (key !== undefined && key !== '' && secret !== undefined && secret !== '') return { consumerKey: key, consumerSecret: secret, from: 'environment' };
  const p = readProfile(env, endpoint);
  return p === undefined ? undefined : { consumerKey: p.consumer_key, consumerSecret: p.consumer_secret, from: 'file' };
}

/** Consumer credentials: environment first, then the stored profile. */
export function consumerFrom(env: NodeJS.ProcessEnv, endpoint: string): { consumerKey: string; consumerSecret: string } | undefined {
  const found = consumerWithOrigin(env, endpoint);
  return found === undefined ? undefined : { consumerKey: found.consumerKey, consumerSecret: found.consumerSecret };
}

/** User credentials, and where they came from in words that name no secret (what a 401 tells the user to check). */
interface FoundCredentials {
  credentials: OAuthCredentials;
  source: string;
}

/**
 * The source of credentials in words: `the environment (ADSCTL_CONSUMER_KEY, ...)`, or the file
 * `adsctl auth login` wrote with its path and profile, or each half's when they differ.
 */
function sourceOf(env: NodeJS.ProcessEnv, endpoint: string, consumer: From, token: From): string {
  const file = `${credentialsPath(env)} (profile ${JSON.stringify(redactUserinfo(endpoint))}, written by adsctl auth login)`;
  if (consumer === 'environment' && token === 'environment') return 'the environment (ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET, ADSCTL_ACCESS_TOKEN, ADSCTL_ACCESS_TOKEN_SECRET)';
  if (consumer === 'file' && token === 'file') return file;
  return consumer === 'environment'
    ? `the environment (ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET) for the application and ${file} for the access token`
    : `${file} for the application and the environment (ADSCTL_ACCESS_TOKEN, ADSCTL_ACCESS_TOKEN_SECRET) for the access token`;
}

/** Full user credentials, environment first, then the stored profile, with where they came from. */
export function userCredentialsFrom(env: NodeJS.ProcessEnv, endpoint: string): FoundCredentials | undefined {
  const consumer = consumerWithOrigin(env, endpoint);
  if (consumer === undefined) return undefined;
  const { consumerKey, consumerSecret } = consumer;
  const token = env['ADSCTL_ACCESS_TOKEN'];
  const secret = env['ADSCTL_ACCESS_TOKEN_SECRET'];
  if (token !== undefined && token !== '' && secret !== undefined && secret !== '') {
    return { credentials: { consumerKey, consumerSecret, token, tokenSecret: secret }, source: sourceOf(env, endpoint, consumer.from, 'environment') };
  }
  const p = readProfile(env, endpoint);
  if (p?.access_token === undefined || p.access_token_secret === undefined) return undefined;
  return { credentials: { consumerKey, consumerSecret, token: p.access_token, tokenSecret: p.access_token_secret }, source: sourceOf(env, endpoint, consumer.from, 'file') };
}
