/** What Scry knows about a collection (and the token at hand) that speaks for or against spam. */
export type SpamFeatures = {
  /** Transfers of the collection that are neither mints nor burns (capped by the reader). */
  tradeVolume: number
  /** Distinct receivers of those transfers. */
  uniqueBuyers: number
  /** Distinct senders of those transfers. */
  uniqueSellers: number
  /** On the operator's list as flagged by an outside source. */
  externallyFlagged: boolean
  /** The metadata URI is http(s) off IPFS; undefined while the URI is not known. */
  uriNonIpfs: boolean | undefined
  /** Distinct lure words found in the name, description and URI. */
  suspiciousWords: number
  /** The metadata URI is on a URL shortener; undefined while the URI is not known. */
  urlShortener: boolean | undefined
  /** The operator's own verdict, if any. */
  manualClassification: 'spam' | 'not_spam' | undefined
}

export type SpamFeatureName =
  | 'trade_volume'
  | 'unique_buyers'
  | 'unique_sellers'
  | 'externally_flagged'
  | 'uri_non_ipfs'
  | 'suspicious_words'
  | 'url_shortener'
  | 'manual_classification'

export type SpamExplanation = {
  feature: SpamFeatureName
  /** The observed value; absent when unknown. */
  value?: number | boolean | string
  /** 0 (looks legitimate) to 100 (looks like spam). */
  feature_score: number
  /**
   * Share of the feature's weight in the average (0–1; the shares sum to 1), as the hosted
   * API's published schema has it; 0 when the feature gives no evidence either way.
   */
  feature_weight: number
}

export type SpamScore = { score: number; explanations: SpamExplanation[] }

/** Counts at or above these look like a real market (feature score 0). */
export const TRADE_VOLUME_SATURATION = 20
export const UNIQUE_TRADERS_SATURATION = 10

/** Items at or above this score are spam (spec/decisions.md). */
export const SPAM_THRESHOLD = 50

/**
 * Spam score 0–100: the weighted average of the feature scores. Weights: market signals
 * (trade volume, unique buyers, unique sellers) 0.5 each, so that a new collection without
 * trades is not spam on that alone; URI off IPFS 1; lure words 2; URL shortener 2; an
 * external flag 8 (only when flagged: not being on a list is no evidence); the operator's
 * manual classification 100 when given, which decides. Explanations give each weight as its
 * share of the total (rounded to 4 decimals). Pure.
 */
export function scoreCollection(features: SpamFeatures): SpamScore {
  const explanations: SpamExplanation[] = [
    {
      feature: 'trade_volume',
      value: features.tradeVolume,
      feature_score: shortfall(features.tradeVolume, TRADE_VOLUME_SATURATION),
      feature_weight: 0.5,
    },
    {
      feature: 'unique_buyers',
      value: features.uniqueBuyers,
      feature_score: shortfall(features.uniqueBuyers, UNIQUE_TRADERS_SATURATION),
      feature_weight: 0.5,
    },
    {
      feature: 'unique_sellers',
      value: features.uniqueSellers,
      feature_score: shortfall(features.uniqueSellers, UNIQUE_TRADERS_SATURATION),
      feature_weight: 0.5,
    },
    {
      feature: 'externally_flagged',
      value: features.externallyFlagged,
      feature_score: features.externallyFlagged ? 100 : 0,
      feature_weight: features.externallyFlagged ? 8 : 0,
    },
    flag('uri_non_ipfs', features.uriNonIpfs, 1),
    {
      feature: 'suspicious_words',
      value: features.suspiciousWords,
      feature_score: features.suspiciousWords >= 2 ? 100 : features.suspiciousWords === 1 ? 60 : 0,
      feature_weight: 2,
    },
    flag('url_shortener', features.urlShortener, 2),
    features.manualClassification === undefined
      ? { feature: 'manual_classification', feature_score: 0, feature_weight: 0 }
      : {
          feature: 'manual_classification',
          value: features.manualClassification,
          feature_score: features.manualClassification === 'spam' ? 100 : 0,
          feature_weight: 100,
        },
  ]
  let total = 0
  let weights = 0
  for (const e of explanations) {
    total += e.feature_score * e.feature_weight
    weights += e.feature_weight
  }
  const score = weights === 0 ? 0 : Math.round(total / weights)
  return {
    score: Math.min(100, Math.max(0, score)),
    explanations: explanations.map((e) => ({
      ...e,
      feature_weight: weights === 0 ? 0 : Math.round((e.feature_weight / weights) * 1e4) / 1e4,
    })),
  }
}

export function isSpamScore(score: number): boolean {
  return score >= SPAM_THRESHOLD
}

function shortfall(value: number, saturation: number): number {
  const v = Number.isFinite(value) ? Math.max(0, value) : 0
  return Math.round(100 * (1 - Math.min(v, saturation) / saturation))
}

function flag(
  feature: SpamFeatureName,
  value: boolean | undefined,
  weight: number,
): SpamExplanation {
  if (value === undefined) return { feature, feature_score: 0, feature_weight: 0 }
  return { feature, value, feature_score: value ? 100 : 0, feature_weight: weight }
}
