import { describe, expect, it } from 'vitest';
import { redactAuthorization, redactUrl } from '../../src/api/trace.js';

describe('trace redaction', () => {
  it('redacts the password of a request URL, as the OAuth header is redacted', () => {
    const line = `GET ${redactUrl('http://user:secret@127.0.0.1:8080/ads-api/12/accounts')} → 200 3ms ${redactAuthorization('OAuth oauth_consumer_key="ck", oauth_signature="sig"')}`;
    expect(line).not.toContain('secret');
    expect(line).toContain('http://user:***@127.0.0.1:8080/ads-api/12/accounts');
    expect(line).toContain('oauth_consumer_key="<redacted>"');
  });
});
