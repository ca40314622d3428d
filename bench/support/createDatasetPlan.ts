import { createRandom } from './createRandom.ts'

/**
 * Who exists in the generated dataset and who holds what, derived from the seed and the sizes
 * alone (no I/O), so the load phase can rebuild it for a store filled earlier.
 *
 * Holders: token 0 (the big token) is held by every wallet; token t ≥ 1 by the busy wallets
 * plus a Zipf-like share of the others (`share / t`). Holder k of a token is busy wallet k for
 * k < busy, else a fixed permutation of the other wallets, so "a random holder of t" is one
 * random index and the per-holder facts fit in flat typed arrays (`slot`).
 */
export type DatasetPlan = {
  seed: number
  wallets: readonly `0x${string}`[]
  tokens: readonly `0x${string}`[]
  /** Wallets 0..busy-1: they hold every token and take part in about half the transfers. */
  busy: number
  miners: readonly `0x${string}`[]
  /** Sender of the airdrop transactions that mint every holder's first tokens. */
  distributor: `0x${string}`
  holderCount(token: number): number
  /** Wallet index of holder `k` of `token`. */
  holderWallet(token: number, k: number): number
  /** Index of (token, holder k) in flat per-holder arrays of length `totalSlots`. */
  slot(token: number, k: number): number
  totalSlots: number
}

const HOLDER_SHARE = 0.3
const MINERS = 8

export function createDatasetPlan({
  seed,
  wallets,
  tokens,
  busy,
}: {
  seed: number
  wallets: number
  tokens: number
  busy: number
}): DatasetPlan {
  if (busy > wallets) throw new RangeError('busy wallets exceed wallets')
  const random = createRandom(seed ^ 0x5eed)
  const address = () => `0x${random.hex(5)}` as const
  const walletList = Array.from({ length: wallets }, address)
  const tokenList = Array.from({ length: tokens }, address)
  const miners = Array.from({ length: MINERS }, address)
  const distributor = address()

  const others = wallets - busy
  const counts: number[] = []
  const steps: number[] = []
  const shifts: number[] = []
  const bases: number[] = []
  let total = 0
  for (let t = 0; t < tokens; t++) {
    const count = t === 0 ? wallets : busy + Math.floor((others * HOLDER_SHARE) / t)
    counts.push(count)
    bases.push(total)
    total += count
    steps.push(coprimeStep(others, random.int(Math.max(1, others))))
    shifts.push(random.int(Math.max(1, others)))
  }
  const at = (list: number[], t: number) => list[t] as number

  return {
    seed,
    wallets: walletList,
    tokens: tokenList,
    busy,
    miners,
    distributor,
    holderCount: (t) => at(counts, t),
    holderWallet: (t, k) =>
      k < busy ? k : busy + (((k - busy) * at(steps, t) + at(shifts, t)) % others),
    slot: (t, k) => at(bases, t) + k,
    totalSlots: total,
  }
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b]
  return a
}

/** A multiplier that permutes 0..n-1 (coprime with n), near `hint`. */
function coprimeStep(n: number, hint: number): number {
  if (n <= 1) return 1
  let step = Math.max(1, hint)
  while (gcd(step, n) !== 1) step = (step % (n - 1)) + 1
  return step
}
