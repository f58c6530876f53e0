/**
 * `${env:NAME}` in manifest values: lets one manifest serve several environments for values that
 * are not secret (a budget, a name suffix). Credentials never belong in a manifest, so variables
 * whose names look like secrets are refused rather than copied into plans and state.
 */

/** Reads an environment variable; `undefined` when it is not set. */
export type EnvLookup = (name: string) => string | undefined;

/** A problem found while interpolating one value. */
interface EnvProblem {
  code: 'env-unset' | 'env-secret' | 'env-syntax';
  message: string;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET = /SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|^ADSCTL_CONSUMER_KEY$/i;

/** True for variable names adsctl refuses to interpolate because they look like credentials. */
export function isSecretName(name: string): boolean {
  return SECRET.test(name);
}

/** True when the whole text is exactly one `${env:NAME}`. */
export function isWholeInterpolation(text: string): boolean {
  return /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/.test(text);
}

/**
 * Replaces every `${env:NAME}` in `text` by the variable's value; `$${` stands for a literal `${`.
 * Any other `${...}` is a problem, as are unset variables and secret-looking names.
 */
export function interpolateEnv(text: string, env: EnvLookup): { text: string; problems: EnvProblem[] } {
  if (!text.includes('${')) return { text, problems: [] };
  const problems: EnvProblem[] = [];
  const result = text.replace(REFERENCE, (match: string, inner: string | undefined) => {
    if (inner === undefined) return '${';
    const name = inner.startsWith('env:') ? inner.slice(4) : undefined;
    if (name === undefined || !NAME.test(name)) {
      problems.push({ code: 'env-syntax', message: `${match} is not an interpolation adsctl knows; write \${env:NAME}, or $\${ for a literal \${` });
      return match;
    }
    if (isSecretName(name)) {
      problems.push({ code: 'env-secret', message: `${name} looks like a secret; manifests take only non-secret values from the environment (credentials come from ADSCTL_* variables)` });
      return match;
    }
    const value = env(name);
    if (value === undefined) {
      problems.push({ code: 'env-unset', message: `environment variable ${name} is not set` });
      return match;
    }
    return value;
  });
  return { text: result, problems };
}
