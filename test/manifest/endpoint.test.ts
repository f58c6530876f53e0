/**
 * The endpoint a manifest names: local, sandbox, production, or an emulator's http(s) URL (with a
 * port and credentials at most, or its /ads-api base), refused at validate otherwise, at the value.
 */
import { describe, expect, it } from 'vitest';
import { loadManifestSources } from '../../src/manifest/load.js';
import { endpointProblem } from '../../src/manifest/endpoint.js';

describe('endpointProblem', () => {
  it.each(['local', 'sandbox', 'production', 'http://127.0.0.1:8080', 'https://ads.example.com/', 'http://[::1]:8080', 'http://user:secret@127.0.0.1:8080', 'http://bücher.example', 'http://127.0.0.1:8080/ads-api', 'http://127.0.0.1:8080/ads-api-sandbox/'])('accepts %s', (value) => {
    expect(endpointProblem(value)).toBeUndefined();
  });

  it.each(['http://[::1', 'http://[::1:::]', 'http://1.2.3.999', 'http://h:99999', 'http://', 'ftp://h', 'http://a b', 'http://a%zz', 'https://h/v1', 'http://h/ads-api/12', 'http://h?x=1', 'http://h#f', 'Local', 'locla', ''])('refuses %j', (value) => {
    expect(endpointProblem(value)).toMatch(/^endpoint ".*" is not /);
  });

  it('never quotes a password', () => {
    expect(endpointProblem('http://user:secret@[::1')).not.toContain('secret');
  });
});

describe('the endpoint at validate', () => {
  it.each(['http://[::1', 'http://h:99999', 'https://h/v1', 'http://a b'])('refuses %j at the value', (value) => {
    const text = `version: 1\nendpoint: ${JSON.stringify(value)}\naccount: { id: a }\n`;
    const result = loadManifestSources([{ file: 'm.yaml', text }]);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.range?.start.line, d.range?.start.column])).toEqual([['schema-pattern', 2, 11]]);
  });

  it('accepts a URL with credentials, which only plan and apply use', () => {
    const result = loadManifestSources([{ file: 'm.yaml', text: 'version: 1\nendpoint: "http://user:secret@127.0.0.1:8080"\naccount: { id: a }\n' }]);
    expect(result.diagnostics).toEqual([]);
    expect(result.value?.accounts[0]?.endpoint).toBe('http://user:secret@127.0.0.1:8080');
  });
});
