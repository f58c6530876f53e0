import { describe, expect, it } from 'vitest';
import { redactUserinfo } from '../../src/diag/redact.js';

describe('redactUserinfo', () => {
  it('replaces the password of a URL and keeps the user name', () => {
    expect(redactUserinfo('http://user:secret@127.0.0.1:8080')).toBe('http://user:***@127.0.0.1:8080');
    expect(redactUserinfo('GET https://u:p%40ss@h/12/accounts?x=1 → 200')).toBe('GET https://u:***@h/12/accounts?x=1 → 200');
  });

  it('hides a user name given without a password, which is often a token', () => {
    expect(redactUserinfo('https://ghp_token@host/')).toBe('https://***@host/');
  });

  it('takes the last @ of the authority, as URL parsers do, so no part of the password is left', () => {
    expect(redactUserinfo('http://u:p@ss@host/x@y')).toBe('http://u:***@host/x@y');
  });

  it('redacts every URL of a text and leaves text without credentials alone', () => {
    expect(redactUserinfo('a http://a:b@h and https://c:d@i')).toBe('a http://a:***@h and https://c:***@i');
    expect(redactUserinfo('http://h:8080/p user@example.com a:b@c')).toBe('http://h:8080/p user@example.com a:b@c');
  });

  it('can keep the length of the text, for lines a caret points into', () => {
    expect(redactUserinfo('endpoint: "http://user:secret@h"', { keepLength: true })).toBe('endpoint: "http://user:******@h"');
  });
});

describe('redactUserinfo on hostile text', () => {
  it('takes time linear in the length of the text', () => {
    const started = performance.now();
    expect(redactUserinfo(`${'a'.repeat(2_000_000)}@`)).toHaveLength(2_000_001);
    expect(redactUserinfo(`${'a://'.repeat(500_000)}@`)).toHaveLength(2_000_001);
    expect(redactUserinfo(`http://${'a:'.repeat(1_000_000)}@h`)).toBe(`http://a:***@h`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
