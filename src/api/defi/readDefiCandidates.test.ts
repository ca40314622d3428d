import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestStore, type TestStore } from '../../../test/support/createTestStore.ts'
import type { DefiDeployment } from '../../defi/defiDeployments.ts'
import type { Address } from '../../evm/types.ts'
import { toU256 } from '../../store/u256.ts'
import { readDefiCandidates } from './readDefiCandidates.ts'

const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Address
const MANAGER = '0x00000000000000000000000000000000000000e1' as Address
const deployment: DefiDeployment = {
  v3Managers: [
    {
      address: MANAGER,
      poolDeployer: '0x00000000000000000000000000000000000000f1',
      poolInitCodeHash: `0x${'11'.repeat(32)}`,
      protocol: 'UniswapV3',
    },
  ],
  v2Protocols: {},
  vaults: [],
}
let t: TestStore

beforeAll(async () => {
  t = await createTestStore('sqlite')
  await t.store.db
    .insertInto('nft_holdings')
    .values(
      [1n, 2n, 9n, 10n, 300n].map((id) => ({
        address: WALLET,
        chain_id: 1,
        contract: MANAGER,
        token_id: toU256(id),
        standard: 'erc721' as const,
        balance: toU256(1n),
        last_acquired_time: 0,
        last_acquired_block: 0,
      })),
    )
    .execute()
})
afterAll(async () => {
  await t?.drop()
})

/** The wallet's candidates on chain 1 with `defi` deployed, at most 3. */
const candidatesOf = (defi: DefiDeployment) =>
  readDefiCandidates({
    db: t.store.db,
    chain: { chainId: 1, dexFactories: [], defi, unlistedVaults: 'value', deniedVaults: [] },
    wallet: WALLET,
    limit: 3,
  })

test('behavior: past the cap, the oldest LP NFTs are left out (an LP keeps its newest open)', async () => {
  const { candidates, total } = await candidatesOf(deployment)
  expect(total).toBe(5)
  expect(candidates.map((c) => (c.type === 'uniswap_v3' ? c.tokenId : c.type))).toEqual([
    300n,
    10n,
    9n,
  ])
})

test('behavior: a chain whose DeFi is off (an empty defiProtocols) has no candidates', async () => {
  const { candidates, total } = await candidatesOf({ ...deployment, off: true })
  expect([candidates, total]).toEqual([[], 0])
})
