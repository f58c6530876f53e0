import { describe, expect, it } from 'vitest';
import { interpolateEnv, isSecretName, isWholeInterpolation } from '../../src/manifest/env.js';

const env = (name: string): string | undefined => ({ REGION: 'eu', EMPTY: '' })[name];

describe('interpolateEnv', () => {
  it('replaces ${env:NAME} anywhere in a value and keeps $${ as a literal ${', () => {
    expect(interpolateEnv('shop-${env:REGION}-${env:REGION}', env)).toEqual({ text: 'shop-eu-eu', problems: [] });
    expect(interpolateEnv('x${env:EMPTY}y', env)).toEqual({ text: 'xy', problems: [] });
    expect(interpolateEnv('cost $${env:REGION}', env)).toEqual({ text: 'cost ${env:REGION}', problems: [] });
    expect(interpolateEnv('no interpolation $ { here', env)).toEqual({ text: 'no interpolation $ { here', problems: [] });
  });

  it('reports unset variables, other ${...} forms and secret-looking names', () => {
    expect(interpolateEnv('${env:NOPE}', env).problems.map((p) => p.code)).toEqual(['env-unset']);
    expect(interpolateEnv('${var.x} ${env:} ${env:1A}', env).problems.map((p) => p.code)).toEqual(['env-syntax', 'env-syntax', 'env-syntax']);
    expect(interpolateEnv('${env:ADSCTL_ACCESS_TOKEN_SECRET}', () => 'x').problems.map((p) => p.code)).toEqual(['env-secret']);
  });

  it('recognises secret-looking names and whole-value interpolations', () => {
    for (const name of ['ADSCTL_CONSUMER_KEY', 'ADSCTL_CONSUMER_SECRET', 'ADSCTL_ACCESS_TOKEN', 'DB_PASSWORD', 'my_api_token']) expect(isSecretName(name)).toBe(true);
    for (const name of ['REGION', 'DAILY_BUDGET', 'ACCOUNT_ID', 'CAMPAIGN_KEYWORD']) expect(isSecretName(name)).toBe(false);
    expect(isWholeInterpolation('${env:BUDGET}')).toBe(true);
    expect(isWholeInterpolation('x${env:BUDGET}')).toBe(false);
  });
});
