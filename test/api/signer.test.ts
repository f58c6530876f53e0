import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseString, encodePairs, oauthHeader, percentEncode, signature } from '../../src/api/signer.js';

const DOC = {
  consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
  consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
  token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
  tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
};
const DOC_OAUTH: Array<[string, string]> = [
  ['oauth_consumer_key', DOC.consumerKey],
  ['oauth_nonce', 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg'],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', '1318622958'],
  ['oauth_token', DOC.token],
  ['oauth_version', '1.0'],
];
const STATUS: [string, string] = ['status', 'Hello Ladies + Gentlemen, a signed OAuth request!'];

describe('OAuth 1.0a signer', () => {
  it.each([
    ['the published worked example', 'https://api.twitter.com/1.1/statuses/update.json', 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='],
    ['the API v1 version of the page', 'https://api.twitter.com/1/statuses/update.json', 'tnnArxj06cWHq44gCs1OSKk/jLY='],
  ])('reproduces %s', (_name, url, expected) => {
    const base = baseString('POST', url, [['include_entities', 'true'], STATUS, ...DOC_OAUTH]);
    expect(signature(base, DOC.consumerSecret, DOC.tokenSecret)).toBe(expected);
  });

  it('produces the same signature through oauthHeader, without touching its inputs', () => {
    const params: Array<[string, string]> = [['include_entities', 'true'], STATUS];
    const frozen = JSON.stringify(params);
    const header = oauthHeader(DOC, { method: 'POST', url: 'https://api.twitter.com/1.1/statuses/update.json', params, nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg', timestamp: 1318622958 });
    expect(header).toContain('oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D"');
    expect(JSON.stringify(params)).toBe(frozen);
  });

  it.each([
    ['space', 'spring sale', 'spring%20sale'],
    ['plus', 'a+b', 'a%2Bb'],
    ['comma list', 'a,b', 'a%2Cb'],
    ['card uri', 'card://1321554298900107264', 'card%3A%2F%2F1321554298900107264'],
    ['colon time', '2026-01-01T00:00:00Z', '2026-01-01T00%3A00%3A00Z'],
    ['unreserved', 'A-z.0_9~', 'A-z.0_9~'],
    ['reserved sub-delims', "!*'()", '%21%2A%27%28%29'],
    ['unicode', 'café ü', 'caf%C3%A9%20%C3%BC'],
  ])('percent-encodes %s per RFC 3986', (_name, input, expected) => {
    expect(percentEncode(input)).toBe(expected);
    expect(encodePairs([['q', input]])).toBe(`q=${expected}`);
  });

  it('adds oauth_body_hash as base64(SHA-1(body)) and signs it', () => {
    const body = '[{"operation_type":"Create","params":{}}]';
    const header = oauthHeader(DOC, { method: 'POST', url: 'https://ads-api.x.com/12/batch/accounts/a/campaigns', params: [], body });
    const expected = createHash('sha1').update(body).digest('base64');
    expect(header).toContain(`oauth_body_hash="${percentEncode(expected)}"`);
  });

  it('drops default ports and lowercases scheme and host in the base string', () => {
    expect(baseString('get', 'HTTPS://Ads-API.X.com:443/12/accounts', [])).toBe('GET&https%3A%2F%2Fads-api.x.com%2F12%2Faccounts&');
    expect(baseString('GET', 'http://127.0.0.1:8080/12/accounts', [])).toBe('GET&http%3A%2F%2F127.0.0.1%3A8080%2F12%2Faccounts&');
  });
});
