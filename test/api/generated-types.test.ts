import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('generated wire types', () => {
  it('are up to date with schemas/wire.schema.json', () => {
    expect(() => execFileSync(process.execPath, ['scripts/generate-wire-types.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
