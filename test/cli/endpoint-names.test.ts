/**
 * Issue 9, point 8: the endpoint names adsctl takes — `production`, `sandbox`, an emulator's base
 * URL, and the `ads_base_url` the emulator prints (its base URL and `/ads-api`) — and the one-line
 * refusal of anything else, naming ADSCTL_ENDPOINT when the name came from there.
 */
import { describe, expect, it } from 'vitest';
import { PRODUCTION, resolveRemoteEndpoint, SANDBOX } from '../../src/api/endpoints.js';
import { endpointEnvProblem, endpointEnvRefusal } from '../../src/cli/endpoint-env.js';

describe('resolveRemoteEndpoint', () => {
  it.each([
    ['production', PRODUCTION.adsBaseUrl],
    ['sandbox', SANDBOX.adsBaseUrl],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/ads-api'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/ads-api'],
    ['http://127.0.0.1:4010/ads-api', 'http://127.0.0.1:4010/ads-api'],
    ['http://127.0.0.1:4010/ads-api/', 'http://127.0.0.1:4010/ads-api'],
    ['http://127.0.0.1:4010/ads-api-sandbox', 'http://127.0.0.1:4010/ads-api'],
    ['https://emulator.example:8443/ads-api', 'https://emulator.example:8443/ads-api'],
  ])('takes %s, whose advertising endpoints are at %s', (name, adsBaseUrl) => {
    const endpoint = resolveRemoteEndpoint(name);
    expect(typeof endpoint === 'string' ? endpoint : endpoint.adsBaseUrl).toBe(adsBaseUrl);
  });

  it('keeps the name as written, so state and credentials stay with it', () => {
    const endpoint = resolveRemoteEndpoint('http://127.0.0.1:4010/ads-api');
    expect(typeof endpoint === 'string' ? endpoint : [endpoint.name, endpoint.baseUrl]).toEqual(['http://127.0.0.1:4010/ads-api', 'http://127.0.0.1:4010']);
  });

  it.each([['staging'], ['http://127.0.0.1:4010/v2'], ['ftp://127.0.0.1:4010'], ['http://'], ['http://a b:1'], ['127.0.0.1:4010']])('refuses %s in one line listing what it takes', (name) => {
    const endpoint = resolveRemoteEndpoint(name);
    expect(typeof endpoint).toBe('string');
    expect(endpoint).toContain(JSON.stringify(name));
    expect(endpoint).toContain('/ads-api');
    expect(String(endpoint)).not.toContain('\n');
  });
});

describe('endpointEnvProblem', () => {
  it.each([[{}], [{ ADSCTL_ENDPOINT: '' }], [{ ADSCTL_ENDPOINT: 'local' }], [{ ADSCTL_ENDPOINT: 'sandbox' }], [{ ADSCTL_ENDPOINT: 'http://127.0.0.1:4010/ads-api' }]])('has nothing to say about %j', (env) => {
    expect(endpointEnvProblem(env)).toBeUndefined();
  });

  it('names the variable and its value', () => {
    expect(endpointEnvProblem({ ADSCTL_ENDPOINT: 'http://127.0.0.1:4010/v2' })).toMatch(/^ADSCTL_ENDPOINT="http:\/\/127\.0\.0\.1:4010\/v2" is not an endpoint: /);
  });

  it('never shows a password written in the URL', () => {
    const problem = endpointEnvProblem({ ADSCTL_ENDPOINT: 'http://user:s3cret@127.0.0.1:4010/v2' });
    expect(problem).toContain('http://user:***@127.0.0.1:4010/v2');
    expect(problem).not.toContain('s3cret');
  });

  it.each([
    [['plan', '.'], true],
    [['apply', '--auto-approve'], true],
    [['destroy'], true],
    [['import', 'campaigns.a', 'x'], true],
    [['auth', 'whoami'], true],
    [['auth', 'whoami', '--endpoint', 'local'], false],
    [['plan', '--help'], false],
    [['validate'], false],
    [['state', 'list'], false],
    [['emulator'], false],
  ])('is checked for %j: %s', (args, refused) => {
    expect(endpointEnvRefusal(args, { ADSCTL_ENDPOINT: 'staging' }) !== undefined).toBe(refused);
  });
});
