/**
 * A funding instrument. One named by `id` is an existing instrument, only referenced; one
 * created in the sandbox can never be updated (no PUT), so every field forces a replacement.
 * Always read whole: its currency is the currency of the campaigns that draw on it.
 */
import type { FundingInstrument } from '../manifest/generated/manifest.js';
import type { FundingInstrumentCreateParams } from '../api/generated/wire.js';
import { field } from './attribute.js';
import { FLIGHT } from './budget-flight.js';
import type { KindDescriptor } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { listed } from './standard.js';
import { firstText } from './write-back.js';

/** A funding instrument. */
export const FUNDING_INSTRUMENT: KindDescriptor = {
  kind: 'funding_instrument',
  noun: 'funding instrument',
  parent: 'account',
  address: { collection: 'funding_instruments', key: 'name' },
  manifest: manifestFields<FundingInstrument>('FundingInstrument', {
    plain: ['type', 'currency'],
    money: { credit_limit: 'credit_limit_local_micro', funded_amount: 'funded_amount_local_micro' },
    times: ['start_time', 'end_time'],
    special: ['id'],
  }),
  // the manifest names an existing instrument by id, and only references it
  generate: { nameOf: firstText('name', 'description', 'type'), byId: true, oneLine: true },
  attributes: [
    { ...field('type', 'scalar', 'replace'), requiredOnCreate: true },
    { ...field('currency', 'scalar', 'replace'), requiredOnCreate: true },
    { ...field('start_time', 'time', 'replace'), requiredOnCreate: true },
    field('end_time', 'time', 'replace'),
    field('credit_limit_local_micro', 'micros', 'replace'),
    field('funded_amount_local_micro', 'micros', 'replace'),
  ],
  computed: ['id', 'account_id', 'description', 'credit_remaining_local_micro', 'entity_status', 'able_to_fund', 'reasons_not_able_to_fund', 'io_header', 'created_at', 'updated_at', 'deleted'],
  readOnlyWhenImported: true,
  read: listed('funding_instrument', 'whole', { always: true }),
  write: {
    create: {
      via: 'single',
      send: async (api, accountId, item) => (await api.createSandboxFundingInstrument(accountId, item.params as unknown as FundingInstrumentCreateParams)).id,
    },
    delete: { via: 'single', send: async (api, accountId, item) => (await api.deleteSandboxFundingInstrument(accountId, item.id ?? '')).id },
  },
  find: { resource: 'funding_instrument', identity: ['type', 'currency', 'start_time'] },
  import: { via: 'manifest', hint: 'a funding instrument is bound by its id in the manifest' },
  replaceOrder: 'delete-first',
  sandboxOnly: true,
  retiredWithParent: false,
  owned: false,
  flight: FLIGHT,
  limits: [],
  lookups: [],
};
