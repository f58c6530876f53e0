/**
 * The manifest of the Terraform-habits scenarios (test/engine/terraform-habits.test.ts through the
 * engine, test/e2e/terraform-habits.test.ts for argv spellings and colour): two paused campaigns
 * of the seeded account whose daily budgets the scenarios set.
 */
export const ACCOUNT = '18ce54d4x5t';

/** The manifest at `endpoint` with the campaigns' daily budgets `daily`. */
export function habitsManifest(endpoint: string, daily: { alpha: string; beta: string }): string {
  return `version: 1
endpoint: ${endpoint}
account:
  id: "${ACCOUNT}"
funding_instruments:
  main: { id: lygyi }
campaigns:
  alpha: { name: "Habits alpha", funding_instrument: main, daily_budget: "${daily.alpha}", entity_status: PAUSED }
  beta: { name: "Habits beta", funding_instrument: main, daily_budget: "${daily.beta}", entity_status: PAUSED }
`;
}
