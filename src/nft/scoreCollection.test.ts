import { expect, test } from 'vitest'
import { isSpamScore, type SpamFeatures, scoreCollection } from './scoreCollection.ts'
import { createSpamList, parseSpamList } from './spamList.ts'
import { findSuspiciousWords, uriFeatures, uriText } from './spamTextFeatures.ts'

const legit: SpamFeatures = {
  tradeVolume: 50,
  uniqueBuyers: 30,
  uniqueSellers: 30,
  externallyFlagged: false,
  uriNonIpfs: false,
  suspiciousWords: 0,
  urlShortener: false,
  manualClassification: undefined,
}

test('default: a traded IPFS collection scores 0 with every feature explained', () => {
  const { score, explanations } = scoreCollection(legit)
  expect(score).toBe(0)
  expect(explanations).toEqual([
    // Weights 0.5, 0.5, 0.5, 0, 1, 2, 2, 0 as shares of their sum, 6.5.
    { feature: 'trade_volume', value: 50, feature_score: 0, feature_weight: 0.0769 },
    { feature: 'unique_buyers', value: 30, feature_score: 0, feature_weight: 0.0769 },
    { feature: 'unique_sellers', value: 30, feature_score: 0, feature_weight: 0.0769 },
    { feature: 'externally_flagged', value: false, feature_score: 0, feature_weight: 0 },
    { feature: 'uri_non_ipfs', value: false, feature_score: 0, feature_weight: 0.1538 },
    { feature: 'suspicious_words', value: 0, feature_score: 0, feature_weight: 0.3077 },
    { feature: 'url_shortener', value: false, feature_score: 0, feature_weight: 0.3077 },
    { feature: 'manual_classification', feature_score: 0, feature_weight: 0 },
  ])
  expect(explanations.reduce((sum, e) => sum + e.feature_weight, 0)).toBeCloseTo(1, 3)
})

test('behavior: an untraded airdrop behind a shortener with lure words is spam', () => {
  const spam = scoreCollection({
    ...legit,
    tradeVolume: 0,
    uniqueBuyers: 0,
    uniqueSellers: 0,
    uriNonIpfs: true,
    suspiciousWords: 2,
    urlShortener: true,
  })
  expect(spam.score).toBe(100)
  expect(isSpamScore(spam.score)).toBe(true)
})

test('behavior: a new collection without trades is not spam on that alone', () => {
  const fresh = { ...legit, tradeVolume: 0, uniqueBuyers: 0, uniqueSellers: 0 }
  expect(scoreCollection(fresh).score).toBe(23)
  expect(scoreCollection({ ...fresh, uriNonIpfs: undefined, urlShortener: undefined }).score).toBe(
    43,
  )
  expect(scoreCollection({ ...fresh, uriNonIpfs: true }).score).toBe(38)
  expect(isSpamScore(49)).toBe(false)
  expect(isSpamScore(50)).toBe(true)
})

test('behavior: an external flag weighs heavily; a manual classification decides', () => {
  expect(scoreCollection({ ...legit, externallyFlagged: true }).score).toBe(55)
  expect(scoreCollection({ ...legit, manualClassification: 'spam' }).score).toBe(94)
  const cleared = scoreCollection({
    ...legit,
    tradeVolume: 0,
    uniqueBuyers: 0,
    uniqueSellers: 0,
    uriNonIpfs: true,
    suspiciousWords: 3,
    urlShortener: true,
    manualClassification: 'not_spam',
  })
  expect(cleared.score).toBe(6)
  expect(cleared.explanations.at(-1)).toEqual({
    feature: 'manual_classification',
    value: 'not_spam',
    feature_score: 0,
    feature_weight: 0.939, // 100 of 106.5
  })
})

test('behavior: market features fall linearly to 0 at saturation', () => {
  const s = scoreCollection({ ...legit, tradeVolume: 5, uniqueBuyers: 5, uniqueSellers: 20 })
  expect(s.explanations.slice(0, 3).map((e) => e.feature_score)).toEqual([75, 50, 0])
  const weird = scoreCollection({ ...legit, tradeVolume: Number.NaN, uniqueBuyers: -4 })
  expect(weird.explanations.slice(0, 2).map((e) => e.feature_score)).toEqual([100, 100])
})

test('default: suspicious words', () => {
  expect(findSuspiciousWords(['Claim Your Reward', 'CLAIM'])).toEqual(['claim', 'reward'])
  expect(findSuspiciousWords(['Visit https://x to redeem your voucher'])).toEqual([
    'visit',
    'voucher',
    'redeem',
  ])
  expect(findSuspiciousWords(['Get $ETH now', 'worth $500'])).toEqual(['$'])
  expect(findSuspiciousWords(['Rewards are claimable'])).toEqual(['claim', 'reward'])
  expect(findSuspiciousWords(['Free-Mint today', 'AIRDROP'])).toEqual(['free mint', 'airdrop'])
  expect(findSuspiciousWords(['Demo Punks', 'Scry demo NFT', 'proclaimed', undefined])).toEqual([])
})

test('default: URI features', () => {
  expect(uriFeatures('http://bit.ly/claim-reward?id=1')).toEqual({
    uriNonIpfs: true,
    urlShortener: true,
  })
  expect(uriFeatures('https://www.tinyurl.com/x')).toEqual({ uriNonIpfs: true, urlShortener: true })
  expect(uriFeatures('https://api.example.com/1.json')).toEqual({
    uriNonIpfs: true,
    urlShortener: false,
  })
  expect(uriFeatures('https://ipfs.io/ipfs/bafy/1.json')).toEqual({
    uriNonIpfs: false,
    urlShortener: false,
  })
  expect(uriFeatures('ipfs://bafy/1')).toEqual({ uriNonIpfs: false, urlShortener: false })
  expect(uriFeatures('data:application/json,{}')).toEqual({
    uriNonIpfs: false,
    urlShortener: false,
  })
  expect(uriFeatures(undefined)).toEqual({ uriNonIpfs: undefined, urlShortener: undefined })
  expect(uriText('data:application/json;base64,Y2xhaW0=')).toBeUndefined()
  expect(uriText('http://x/claim%20now')).toBe('http://x/claim now')
  expect(uriText('http://x/%E0%A4%A')).toBe('http://x/%E0%A4%A')
})

test('default: the operator spam list', () => {
  const contract = `0x${'ab'.repeat(20)}`
  const list = createSpamList(
    parseSpamList([
      { chain_id: 1, contract: contract.toUpperCase().replace('0X', '0x'), classification: 'spam' },
      { chain_id: 10, contract, externally_flagged: true },
    ]),
  )
  expect(list.lookup({ chainId: 1, contract })).toEqual({
    externallyFlagged: false,
    manualClassification: 'spam',
  })
  expect(list.lookup({ chainId: 10, contract })).toEqual({
    externallyFlagged: true,
    manualClassification: undefined,
  })
  expect(list.lookup({ chainId: 2, contract })).toEqual({
    externallyFlagged: false,
    manualClassification: undefined,
  })
  expect(() => parseSpamList({})).toThrowErrorMatchingInlineSnapshot(
    `[ConfigError: The spam list must be a JSON array.]`,
  )
  expect(() => parseSpamList([{ chain_id: 1, contract: 'x' }])).toThrowErrorMatchingInlineSnapshot(
    `[ConfigError: Spam list entry 0: contract must be a 0x address.]`,
  )
  expect(() =>
    parseSpamList([{ chain_id: 1, contract, classification: 'maybe' }]),
  ).toThrowErrorMatchingInlineSnapshot(
    `[ConfigError: Spam list entry 0: classification must be "spam" or "not_spam".]`,
  )
})
