/**
 * The ad account. It exists already (`account.id`), or in sandbox and local adsctl creates it
 * before applying (src/cli/execute.ts); its "create" then sets its fields. PUT changes `name` and
 * `industry_type`; list responses leave `industry_type` out, so the diff falls back to the
 * applied value for it. A name left out of the manifest is the live one (`kept`): the service
 * refuses an empty name. Deleted only in the sandbox, and only when adsctl created it.
 */
import type { Account } from '../manifest/generated/manifest.js';
import { field } from './attribute.js';
import type { KindDescriptor, WriteEndpoint } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';

const setFields: WriteEndpoint = {
  via: 'single',
  send: async (api, accountId, item) => (Object.keys(item.params).length === 0 ? accountId : (await api.updateAccount(accountId, item.params)).id),
};

/** The account. */
export const ACCOUNT: KindDescriptor = {
  kind: 'account',
  noun: 'account',
  address: { collection: '', key: 'root' },
  manifest: manifestFields<Account>('Account', {
    plain: ['name', 'industry_type'], special: ['id', 'limits'],
    sections: ['features', 'funding_instruments', 'media', 'cards', 'conversation_cards', 'posts', 'draft_posts', 'scheduled_posts', 'custom_audiences', 'flexible_audiences', 'do_not_reach', 'campaigns'],
  }),
  generate: {},
  attributes: [{ ...field('name', 'scalar', 'update'), kept: true }, field('industry_type', 'scalar', 'update')],
  computed: ['id', 'business_name', 'business_id', 'timezone', 'timezone_switch_at', 'approval_status', 'created_at', 'updated_at', 'deleted'],
  read: { via: 'account' },
  write: {
    create: setFields,
    update: setFields,
    delete: { via: 'single', send: async (api, accountId) => (await api.deleteSandboxAccount(accountId)).id },
  },
  import: { via: 'manifest', hint: 'an account is bound by account.id in its manifest' },
  replaceOrder: 'delete-first',
  sandboxOnly: true,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
};
