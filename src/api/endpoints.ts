/**
 * Where requests go (docs/architecture.md): `production`, `sandbox`, `local` (the embedded emulator, started
 * by the command line), or an `http(s)://host:port` URL of a running emulator. Each resolves to
 * the spec's three base URLs.
 */

export interface Endpoint {
  /** As the user wrote it: `production`, `sandbox`, `local` or the URL. */
  name: string;
  /** Token endpoints. */
  baseUrl: string;
  /** Advertising endpoints. */
  adsBaseUrl: string;
  /** Sandbox-only advertising endpoints. */
  adsSandboxBaseUrl: string;
  /** Whether sandbox-only operations (creating accounts and funding instruments) are allowed. */
  sandbox: boolean;
  /**
   * How long a request keeps retrying a refused or unreachable connection to this endpoint, as
   * the command line opened it (`--connect-timeout`); absent: the client's default.
   */
  connectTimeoutMs?: number;
}

export const PRODUCTION: Endpoint = {
  name: 'production',
  baseUrl: 'https://api.x.com',
  adsBaseUrl: 'https://ads-api.x.com',
  adsSandboxBaseUrl: 'https://ads-api-sandbox.x.com',
  sandbox: false,
};

export const SANDBOX: Endpoint = {
  name: 'sandbox',
  baseUrl: 'https://api.x.com',
  adsBaseUrl: 'https://ads-api-sandbox.x.com',
  adsSandboxBaseUrl: 'https://ads-api-sandbox.x.com',
  sandbox: true,
};

/** The emulator's layout below its base URL (see `adsctl emulator`). */
export function emulatorEndpoint(name: string, baseUrl: string): Endpoint {
  const base = baseUrl.replace(/\/+$/, '');
  return { name, baseUrl: base, adsBaseUrl: `${base}/ads-api`, adsSandboxBaseUrl: `${base}/ads-api-sandbox`, sandbox: true };
}

/**
 * Resolves an endpoint name other than `local` (which needs the embedded emulator running).
 * Returns an error message for anything else.
 */
export function resolveRemoteEndpoint(name: string): Endpoint | string {
  if (name === 'production') return PRODUCTION;
  if (name === 'sandbox') return SANDBOX;
  if (/^https?:\/\/[^/\s]+\/?$/.test(name)) {
    try {
      new URL(name);
      return emulatorEndpoint(name, name);
    } catch {
      return `endpoint ${JSON.stringify(name)} is not a valid URL`;
    }
  }
  return `unknown endpoint ${JSON.stringify(name)}: expected local, sandbox, production or http(s)://host:port`;
}
