/**
 * Which endpoint a command talks to, by one rule for every command (docs/architecture.md,
 * "Endpoints"): `--endpoint` where the command has it, else ADSCTL_ENDPOINT, else the manifest's
 * `endpoint:` where the command has a manifest, else `local`. The choice remembers which of the
 * four decided, so that an error that is likely the endpoint's names the setting to check.
 */

/** The setting that decided the endpoint. */
type EndpointSource = 'flag' | 'environment' | 'manifest' | 'default';

export interface EndpointChoice {
  /** The endpoint name as given: `local`, `sandbox`, `production` or a URL. */
  name: string;
  source: EndpointSource;
}

/** What a command was given; an empty string counts as not given. */
export interface EndpointGiven {
  /** The command's `--endpoint`, when it has one. */
  flag?: string | undefined;
  /** ADSCTL_ENDPOINT. */
  environment?: string | undefined;
  /** The manifest's `endpoint:` (or a saved plan's, which is the manifest's), when the command has one. */
  manifest?: string | undefined;
}

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The endpoint of a run, by the rule above. */
export function chooseEndpoint(from: EndpointGiven): EndpointChoice {
  if (given(from.flag)) return { name: from.flag, source: 'flag' };
  if (given(from.environment)) return { name: from.environment, source: 'environment' };
  if (given(from.manifest)) return { name: from.manifest, source: 'manifest' };
  return { name: 'local', source: 'default' };
}

/** The setting to check when the endpoint is wrong: `--endpoint`, `ADSCTL_ENDPOINT` or `` `endpoint:` in the manifest ``. */
export function endpointSetting(source: EndpointSource): string {
  switch (source) {
    case 'flag':
      return '--endpoint';
    case 'environment':
      return 'ADSCTL_ENDPOINT';
    case 'manifest':
      return '`endpoint:` in the manifest';
    case 'default':
      return '`endpoint:` in the manifest or ADSCTL_ENDPOINT (neither is set: local)';
  }
}
