/**
 * ADSCTL_ENDPOINT (docs/architecture.md, "Environment") checked before a command that talks to an
 * endpoint starts: a value that is not an endpoint is one line naming the variable, never a
 * diagnostic at some manifest line, and nothing is sent anywhere. The emulator's `ads_base_url`
 * is an endpoint (src/api/endpoints.ts).
 */
import { ENDPOINT_FORMS, resolveRemoteEndpoint, shownEndpoint } from '../api/endpoints.js';

/** The commands whose endpoint ADSCTL_ENDPOINT sets (`chooseEndpoint`; not when `--endpoint` is given). */
const READ_BY = new Set(['plan', 'apply', 'destroy', 'import', 'generate', 'auth', 'insights', 'api']);

/**
 * What is wrong with ADSCTL_ENDPOINT, in one line naming the variable and its value (any
 * password hidden); undefined when it is unset, empty or an endpoint.
 */
export function endpointEnvProblem(env: NodeJS.ProcessEnv): string | undefined {
  const value = env['ADSCTL_ENDPOINT'];
  if (value === undefined || value === '' || value === 'local') return undefined;
  return typeof resolveRemoteEndpoint(value) === 'string' ? `ADSCTL_ENDPOINT=${shownEndpoint(value)} is not an endpoint: expected ${ENDPOINT_FORMS}` : undefined;
}

/**
 * The refusal of the command line `args` (normalized, command first) for a bad ADSCTL_ENDPOINT:
 * only for a command that reads it, and not when it asks for help or names `--endpoint` itself.
 */
export function endpointEnvRefusal(args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  if (args[0] === undefined || !READ_BY.has(args[0])) return undefined;
  if (args.some((a) => a === '--help' || a === '-h' || a === '--endpoint' || a.startsWith('--endpoint='))) return undefined;
  return endpointEnvProblem(env);
}
