/** Bidding rules per currency (`GET bidding_rules`): CPE bid bounds and the smallest denomination, in micros. */

interface BiddingRule {
  currency: string;
  minimum_cpe_bid_local_micro: number;
  maximum_cpe_bid_local_micro: number;
  minimum_denomination: number;
}

export const BIDDING_RULES: readonly BiddingRule[] = [
  { currency: 'USD', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_000_000_000, minimum_denomination: 10_000 },
  { currency: 'EUR', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_000_000_000, minimum_denomination: 10_000 },
  { currency: 'GBP', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_000_000_000, minimum_denomination: 10_000 },
  { currency: 'CAD', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_300_000_000, minimum_denomination: 10_000 },
  { currency: 'AUD', minimum_cpe_bid_local_micro: 10_000, maximum_cpe_bid_local_micro: 1_400_000_000, minimum_denomination: 10_000 },
  { currency: 'BRL', minimum_cpe_bid_local_micro: 50_000, maximum_cpe_bid_local_micro: 5_000_000_000, minimum_denomination: 10_000 },
  { currency: 'INR', minimum_cpe_bid_local_micro: 1_000_000, maximum_cpe_bid_local_micro: 80_000_000_000, minimum_denomination: 1_000_000 },
  { currency: 'JPY', minimum_cpe_bid_local_micro: 1_000_000, maximum_cpe_bid_local_micro: 150_000_000_000, minimum_denomination: 1_000_000 },
];

export function biddingRule(currency: string): BiddingRule | undefined {
  return BIDDING_RULES.find((r) => r.currency === currency);
}
