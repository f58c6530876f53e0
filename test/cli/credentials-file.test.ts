/**
 * A damaged credentials file is the user's problem, told in one line that names the file and the
 * position and never quotes it: the parser's own message would print the secret around the fault.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

const config = mkdtempSync(join(tmpdir(), 'adsctl-credentials-'));
const file = join(config, 'adsctl', 'credentials.json');
const SECRET = 'kPq3ZsecretValue9';

afterAll(() => {
  rmSync(config, { recursive: true, force: true });
});

describe('a credentials file that is not JSON', () => {
  it.each([
    ['an unquoted secret', `{\n  "profiles": {\n    "http://127.0.0.1:9": { "consumer_key": "k", "consumer_secret": ${SECRET} }\n  }\n}\n`, ' at line 3, column 69'],
    ['a file cut short', `{\n  "profiles": { "http://127.0.0.1:9": { "consumer_secret": "${SECRET}"`, ''],
  ])('%s: one line naming the file, no content, exit 1', async (_name, text, position) => {
    mkdirSync(join(config, 'adsctl'), { recursive: true });
    writeFileSync(file, text);
    const run = await runCli(['auth', 'whoami'], { env: { XDG_CONFIG_HOME: config, ADSCTL_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`${file} is not valid JSON${position}`);
    expect(run.stderr).not.toContain('a bug in adsctl');
    for (let i = 0; i + 4 <= SECRET.length; i++) expect(run.stderr + run.stdout).not.toContain(SECRET.slice(i, i + 4));
  });
});
