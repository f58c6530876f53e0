/** Every advertising endpoint the emulator serves, gathered from the per-resource handler modules. */
import type { RouteDef } from './context.js';
import { routes as accounts } from './handlers/accounts.js';
import { routes as accountApps } from './handlers/account-apps.js';
import { routes as accountHistory } from './handlers/account-history.js';
import { routes as features } from './handlers/features.js';
import { routes as fundingInstruments } from './handlers/funding-instruments.js';
import { routes as promotableUsers } from './handlers/promotable-users.js';
import { routes as userAccess } from './handlers/user-access.js';
import { routes as audienceEstimate } from './handlers/audience-estimate.js';
import { routes as campaigns } from './handlers/campaigns.js';
import { routes as lineItems } from './handlers/line-items.js';
import { routes as lineItemCuratedCategories } from './handlers/line-item-curated-categories.js';
import { routes as targetingCriteria } from './handlers/targeting-criteria.js';
import { routes as targetingOptions } from './handlers/targeting-options.js';
import { routes as promotedTweets } from './handlers/promoted-tweets.js';
import { routes as promotedAccounts } from './handlers/promoted-accounts.js';
import { routes as mediaCreatives } from './handlers/media-creatives.js';
import { routes as accountMedia } from './handlers/account-media.js';
import { routes as mediaLibrary } from './handlers/media-library.js';
import { routes as cards } from './handlers/cards.js';
import { routes as conversationCards } from './handlers/conversation-cards.js';
import { routes as tweets } from './handlers/tweets.js';
import { routes as draftTweets } from './handlers/draft-tweets.js';
import { routes as scheduledTweets } from './handlers/scheduled-tweets.js';
import { routes as tweetPreviews } from './handlers/tweet-previews.js';
import { routes as lookups } from './handlers/lookups.js';
import { routes as customAudiences } from './handlers/custom-audiences.js';
import { routes as customAudienceUsers } from './handlers/custom-audience-users.js';
import { routes as audiencePermissions } from './handlers/audience-permissions.js';
import { routes as flexibleAudiences } from './handlers/flexible-audiences.js';
import { routes as doNotReachLists } from './handlers/do-not-reach-lists.js';
import { routes as keywordInsights } from './handlers/keyword-insights.js';

export const ROUTES: readonly RouteDef[] = [
  ...accounts,
  ...accountApps,
  ...accountHistory,
  ...features,
  ...fundingInstruments,
  ...promotableUsers,
  ...userAccess,
  ...audienceEstimate,
  ...campaigns,
  ...lineItems,
  ...lineItemCuratedCategories,
  ...targetingCriteria,
  ...targetingOptions,
  ...promotedTweets,
  ...promotedAccounts,
  ...mediaCreatives,
  ...accountMedia,
  ...mediaLibrary,
  ...cards,
  ...conversationCards,
  ...tweets,
  ...draftTweets,
  ...scheduledTweets,
  ...tweetPreviews,
  ...lookups,
  ...customAudiences,
  ...customAudienceUsers,
  ...audiencePermissions,
  ...flexibleAudiences,
  ...doNotReachLists,
  ...keywordInsights,
];
