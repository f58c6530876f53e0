/**
 * Where requests go (docs/architecture.md): `production`, `sandbox`, `local` (the embedded emulator, started
 * by the command line), or an `http(s)://host:port` URL of a running emulator (also as the
 * `ads_base_url` it prints). Each resolves to the spec's three base URLs and the media upload
 * service's.
 */
import { redactUserinfo } from '../diag/redact.js';

export interface Endpoint {
  /** As the user wrote it: `production`, `sandbox`, `local` or the URL. */
  name: string;
  /** Token endpoints. */
  baseUrl: string;
  /** Advertising endpoints. */
  adsBaseUrl: string;
  /** Sandbox-only advertising endpoints. */
  adsSandboxBaseUrl: string;
  /** The media upload service (`/1.1/media/upload.json` below it), signed like the advertising endpoints. */
  uploadBaseUrl: string;
  /** Whether sandbox-only operations (creating accounts and funding instruments) are allowed. */
  sandbox: boolean;
  /**
   * How long a request keeps retrying a refused or unreachable connection to this endpoint, as
   * the command line opened it (`--connect-timeout`); absent: the client's default.
   */
  connectTimeoutMs?: number;
}

/**
 * The upload service the official SDKs call (`/1.1/media/upload.json` below it). No
 * sandbox upload host is documented, so the sandbox endpoint uploads there too.
 */
const UPLOAD_HOST = 'https://upload.twitter.com';

export const PRODUCTION: Endpoint = {
  name: 'production',
  baseUrl: 'https://api.x.com',
  adsBaseUrl: 'https://ads-api.x.com',
  adsSandboxBaseUrl: 'https://ads-api-sandbox.x.com',
  uploadBaseUrl: UPLOAD_HOST,
  sandbox: false,
};

export const SANDBOX: Endpoint = {
  name: 'sandbox',
  baseUrl: 'https://api.x.com',
  adsBaseUrl: 'https://ads-api-sandbox.x.com',
  adsSandboxBaseUrl: 'https://ads-api-sandbox.x.com',
  uploadBaseUrl: UPLOAD_HOST,
  sandbox: true,
};

/** The emulator's layout below its base URL (see `adsctl emulator`: `upload_base_url` is `<base_url>/upload`). */
export function emulatorEndpoint(name: string, baseUrl: string): Endpoint {
  const base = baseUrl.replace(/\/+$/, '');
  return { name, baseUrl: base, adsBaseUrl: `${base}/ads-api`, adsSandboxBaseUrl: `${base}/ads-api-sandbox`, uploadBaseUrl: `${base}/upload`, sandbox: true };
}

/** The endpoint names adsctl takes, as refusals list them. */
export const ENDPOINT_FORMS = "local, sandbox, production, or an emulator's URL: http(s)://host:port, or the ads_base_url it prints (ending in /ads-api)";

/** `name` quoted for a message, any password in it (or a user name alone) as `***`. */
export function shownEndpoint(name: string): string {
  return JSON.stringify(redactUserinfo(name));
}

/** Paths below an emulator's base URL that name the emulator itself: its base URLs as it prints them. */
const EMULATOR_PATHS = new Set(['', '/ads-api', '/ads-api-sandbox']);

/**
 * Resolves an endpoint name other than `local` (which needs the embedded emulator running):
 * `production`, `sandbox`, or the URL of a running emulator — its `base_url`, or the
 * `ads_base_url` (`/ads-api`) or `ads_sandbox_base_url` it prints, which mean the same emulator.
 * The endpoint keeps the name as written. Returns a one-line error message for anything else,
 * with any password in the name hidden.
 */
export function resolveRemoteEndpoint(name: string): Endpoint | string {
  if (name === 'production') return PRODUCTION;
  if (name === 'sandbox') return SANDBOX;
  if (!/^https?:\/\//i.test(name)) return `unknown endpoint ${shownEndpoint(name)}: expected ${ENDPOINT_FORMS}`;
  let url: URL;
  try {
    url = new URL(name);
  } catch {
    return `endpoint ${shownEndpoint(name)} is not a valid URL: expected ${ENDPOINT_FORMS}`;
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!EMULATOR_PATHS.has(path) || url.search !== '' || url.hash !== '') {
    return `endpoint ${shownEndpoint(name)} is not an emulator's URL: expected ${ENDPOINT_FORMS}`;
  }
  return emulatorEndpoint(redactUserinfo(name), url.origin);
}
