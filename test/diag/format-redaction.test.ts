/** Printed diagnostics never show the password of a URL, in the message or in the source line. */
import { describe, expect, it } from 'vitest';
import { errorAt } from '../../src/diag/diagnostic.js';
import { formatDiagnostic } from '../../src/diag/format.js';

describe('diagnostics about an endpoint URL with credentials', () => {
  const text = 'version: 1\nendpoint: "http://user:secret@[::1"\n';
  const at = text.indexOf('"http');
  const range = { file: 'a.yaml', start: { line: 2, column: 11, offset: at }, end: { line: 2, column: 11 + 25, offset: at + 25 } };

  it('hide the password and keep the caret under the value', () => {
    const shown = formatDiagnostic(errorAt('schema-pattern', 'endpoint "http://user:secret@[::1" is not valid', range, [{ message: 'see http://user:secret@[::1', range }]), new Map([['a.yaml', text]]));
    expect(shown).not.toContain('secret');
    expect(shown.split('\n')).toEqual([
      'a.yaml:2:11: error schema-pattern: endpoint "http://user:***@[::1" is not valid',
      '  2 | endpoint: "http://user:******@[::1"',
      '    |           ^^^^^^^^^^^^^^^^^^^^^^^^^',
      '  a.yaml:2:11: note: see http://user:***@[::1',
    ]);
  });
});
