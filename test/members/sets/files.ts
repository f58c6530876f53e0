/** Temporary files for the audience tests: one directory per test file, removed after it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A fresh directory removed when the test file ends, and a writer of files in it. */
export function scratch(): { dir: string; file: (name: string, text: string | Buffer) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-audience-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    file: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}
