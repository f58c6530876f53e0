/**
 * Attribute rules of the account-level kinds (DESIGN §2), from the emulator's handlers:
 * - account: PUT changes `name` and `industry_type` (accounts.ts); list responses leave
 *   `industry_type` out, so the diff falls back to the applied value for it then;
 * - account feature: its key is its identity; features are granted and withdrawn, never updated;
 * - funding instrument: one named by `id` is an existing instrument, only referenced; one
 *   created in the sandbox can never be updated (no PUT), so every field forces a replacement.
 */
import { field, type KindRules } from './field-rule.js';

/** The account: name and industry type are updatable. */
export const ACCOUNT_RULES: KindRules = {
  kind: 'account',
  fields: [field('name', 'scalar', 'update'), field('industry_type', 'scalar', 'update')],
};

/** An account feature: the key is the identity. */
export const ACCOUNT_FEATURE_RULES: KindRules = {
  kind: 'account_feature',
  fields: [{ ...field('feature_key', 'scalar', 'replace'), identity: true }],
};

/** A funding instrument: never updated; sandbox-created ones are replaced when any field changes. */
export const FUNDING_INSTRUMENT_RULES: KindRules = {
  kind: 'funding_instrument',
  fields: [
    field('type', 'scalar', 'replace'),
    field('currency', 'scalar', 'replace'),
    field('start_time', 'time', 'replace'),
    field('end_time', 'time', 'replace'),
    field('credit_limit_local_micro', 'micros', 'replace'),
    field('funded_amount_local_micro', 'micros', 'replace'),
  ],
  aliases: { credit_limit: 'credit_limit_local_micro', funded_amount: 'funded_amount_local_micro' },
  readOnlyWhenImported: true,
};
