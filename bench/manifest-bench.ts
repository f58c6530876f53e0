/**
 * Manifest validation speed: generates one account with 10,000+ resources (100 campaigns of 10
 * line items, each with 5 targeting criteria and 4 promoted posts), writes it to a temporary
 * directory and times `loadManifests` on it: YAML parsing, schema validation, resolution and every
 * offline check. Target: under 1 s.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CAMPAIGNS = 100;
const LINE_ITEMS = 10;
const TARGETING = 5;
const POSTS = 4;

/**
 * The YAML text of the benchmark account, written the way a large manifest is: line items share
 * their settings through an `x-defaults` anchor and a `<<` merge key.
 */
export function benchManifestText(): string {
  const lines = [
    'version: 1',
    'endpoint: sandbox',
    'account:',
    '  id: 18ce54d4x5t',
    '  name: Benchmark',
    'funding_instruments:',
    '  main: { id: lygyi }',
    'x-defaults:',
    '  line_item: &line_item',
    '    product_type: PROMOTED_TWEETS',
    '    objective: ENGAGEMENTS',
    '    placements: [ALL_ON_SERVICE]',
    '    bid_strategy: MAX',
    '    start_time: 2026-06-01T00:00:00Z',
    '    entity_status: PAUSED',
    'campaigns:',
  ];
  for (let c = 0; c < CAMPAIGNS; c++) {
    lines.push(`  campaign_${c}:`, `    name: Campaign ${c}`, '    funding_instrument: main', '    daily_budget: "50.00"', '    total_budget: "5000.00"', '    entity_status: PAUSED', '    line_items:');
    for (let l = 0; l < LINE_ITEMS; l++) {
      lines.push(`      line_${l}:`, '        <<: *line_item', `        name: Line item ${c}.${l}`, `        bid_amount: "1.${String(l).padStart(2, '0')}"`, '        targeting:');
      for (let t = 0; t < TARGETING; t++) lines.push(`          - { targeting_type: BROAD_KEYWORD, targeting_value: keyword_${l}_${t} }`);
      const posts = Array.from({ length: POSTS }, (_, p) => `"${(1346184843436720128n + BigInt((c * LINE_ITEMS + l) * POSTS + p)).toString()}"`);
      lines.push(`        promoted_posts: [${posts.join(', ')}]`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const RUNS = 5;

/** One cold validation in a fresh Node process, as `adsctl validate` runs: seconds and resources. */
function validateInFreshProcess(file: string): { resources: number; seconds: number } {
  const load = new URL('../src/manifest/load.js', import.meta.url).href;
  const script = [
    `const { loadManifests } = await import(${JSON.stringify(load)});`,
    'const started = performance.now();',
    `const result = loadManifests(${JSON.stringify(file)});`,
    'const seconds = (performance.now() - started) / 1000;',
    'const resources = result.value === undefined ? -1 : result.value.accounts.reduce((sum, a) => sum + a.resources.length, 0);',
    'process.stdout.write(JSON.stringify({ resources, seconds, problems: result.diagnostics.slice(0, 3).map((d) => d.code + ": " + d.message) }));',
  ].join('\n');
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const run = JSON.parse(output) as { resources: number; seconds: number; problems: string[] };
  if (run.resources < 0) throw new Error(`benchmark manifest is invalid: ${run.problems.join('; ')}`);
  return run;
}

/**
 * Times the validation of the generated manifest: the median of 5 cold runs, each in a fresh
 * process (so JIT warm-up and the validator's first load count, as they do for a user).
 * Throws if the manifest is not valid (a bug).
 */
export async function benchManifest(): Promise<{ resources: number; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'adsctl-manifest-bench-'));
  try {
    const file = join(dir, 'account.yaml');
    writeFileSync(file, benchManifestText());
    const runs = Array.from({ length: RUNS }, () => validateInFreshProcess(file));
    const seconds = runs.map((r) => r.seconds).sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? Number.NaN;
    return { resources: runs[0]?.resources ?? 0, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
