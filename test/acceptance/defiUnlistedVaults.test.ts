import { type Abi, type Address, maxUint256, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseBlockNumbers } from '../../src/api/blockNumbersHeader.ts'
import type { ChainConfig, UnlistedVaults } from '../../src/config/types.ts'
import { probeStoredTokens } from '../../src/defi/probeStoredTokens.ts'
import { anvilAccounts } from '../../src/dev/anvilAccounts.ts'
import { compileContracts } from '../../src/dev/compileContracts.ts'
import { type AnvilActions, createAnvilActions } from '../../src/dev/createAnvilActions.ts'
import { type Anvil, startAnvil } from '../../src/dev/startAnvil.ts'
import { createRpcClient } from '../../src/evm/rpc/createRpcClient.ts'
import { createPriceWorld, type PriceWorld, priceWorldChain } from '../support/createPriceWorld.ts'
import { createTestApi } from '../support/createTestApi.ts'
import { DIALECTS, type TestStore } from '../support/createTestStore.ts'
import {
  type IndexedSide,
  startIndexedSides,
  stopIndexedSides,
  syncIndexedSides,
} from '../support/startIndexedSides.ts'

// ERC4626 vaults nobody listed, found by the indexer when it first sees their token: vaults
// deployed after indexing started get a `defi_tokens` row from the batch that sees their
// first shares (and lose it when a reorg drops their deployment), a plain ERC20 gets none, and
// the positions endpoints serve them as protocol "Unknown" per `unlistedVaults`: valued
// (equal to a `redeem` eth_call at the block of X-Scry-Block-Numbers), listed without USD, or
// left out; a hostile vault that claims more assets than exist is skipped.
const CHAIN_ID = 1
const MAX = maxUint256

let anvil: Anvil
let w: PriceWorld
let actions: AnvilActions
let chain: ChainConfig
let demoAbi: Abi
let vaultAbi: Abi
let compiled: Awaited<ReturnType<typeof compileContracts>>
let vault: Address
let inflated: Address
let plain: Address
let depositBlock: number
const lp = anvilAccounts(4)[2]!.address.toLowerCase() as Address
const sides: { dialect: string; side: IndexedSide }[] = []

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID })
  w = await createPriceWorld(anvil)
  actions = createAnvilActions({ rpcUrl: anvil.rpcUrl })
  compiled = await compileContracts()
  demoAbi = compiled.DemoERC20.abi
  vaultAbi = compiled.DemoVault.abi
  await w.send({ to: w.tka, abi: demoAbi, functionName: 'mint', args: [lp, 10n ** 24n] })
  chain = priceWorldChain({ anvil, w, defi: { v3Managers: [], v2Protocols: {}, vaults: [] } })
  sides.push(...(await startIndexedSides(chain)))
  await synced()

  // Deployed after indexing started: found by the batch that first sees their shares. The
  // inflated vault claims 10^12 times its assets: more of TKA than exists.
  vault = await deployVault('Later vault')
  inflated = await actions.deploy({
    from: w.deployer,
    artifact: compiled.InflatedVault,
    args: [w.tka, 10n ** 12n],
  })
  plain = await actions.deploy({
    from: w.deployer,
    artifact: compiled.DemoERC20,
    args: ['Plain', 'PLN', 18],
  })
  await w.send({ to: plain, abi: demoAbi, functionName: 'mint', args: [lp, parseEther('5')] })
  // Its conversions burn all gas: the probe's calls fail (never a stuck batch), no row.
  const burner = await actions.deploy({
    from: w.deployer,
    artifact: compiled.GasBurnerVault,
    args: [w.tka],
  })
  await deposit(burner, parseEther('7'))
  await deposit(inflated, parseEther('50'))
  await deposit(vault, parseEther('300'))
  depositBlock = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  // Yield: assets grow without new shares.
  await w.send({
    to: w.tka,
    abi: demoAbi,
    functionName: 'transfer',
    args: [vault, parseEther('3')],
  })
  await synced()
}, 240_000)

afterAll(async () => {
  await stopIndexedSides(sides)
  await anvil?.stop()
})

async function deployVault(name: string): Promise<Address> {
  return actions.deploy({
    from: w.deployer,
    artifact: compiled.DemoVault,
    args: [w.tka, name, 'vL', 0],
  })
}

async function deposit(to: Address, amount: bigint) {
  await w.send({ to: w.tka, abi: demoAbi, functionName: 'approve', args: [to, MAX], from: lp })
  await w.send({ to, abi: vaultAbi, functionName: 'deposit', args: [amount, lp], from: lp })
}

const synced = () => syncIndexedSides(sides, w.pub)

async function defiTokens(store: TestStore) {
  return store.store.db
    .selectFrom('defi_tokens')
    .select(['address', 'kind', 'underlying', 'block_number'])
    .where('chain_id', '=', CHAIN_ID)
    .orderBy('address')
    .execute()
}

/** The wallet's v1 answer with `unlistedVaults` set to `mode` (and `deniedVaults`). */
async function positionsWith(store: TestStore, mode: UnlistedVaults, denied: Address[] = []) {
  const api = await createTestApi({
    store: store.store,
    chains: [{ ...chain, unlistedVaults: mode, deniedVaults: denied }],
  })
  try {
    const res = await api.get(`/v1/evm/defi/positions/${lp}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res
  } finally {
    await api.close()
  }
}

for (const dialect of DIALECTS) {
  describe(`unlisted vaults (${dialect})`, () => {
    const side = () => sides.find((s) => s.dialect === dialect)!.side

    test('behavior: vaults are detected by the batch that first sees them', async () => {
      const rows = await defiTokens(side().store)
      expect(rows.map((r) => [r.address, r.kind, r.underlying])).toEqual(
        [
          [vault, 'erc4626', w.tka],
          [inflated, 'erc4626', w.tka],
        ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
      )
      const token = await side()
        .store.store.db.selectFrom('tokens')
        .select(['first_block'])
        .where('chain_id', '=', CHAIN_ID)
        .where('address', '=', vault)
        .executeTakeFirstOrThrow()
      const row = rows.find((r) => r.address === vault)!
      expect(token.first_block).toBeLessThanOrEqual(depositBlock)
      expect(row.block_number).toBeGreaterThanOrEqual(depositBlock)
      // A plain ERC20 (and the vaults' asset) is no vault.
      expect(rows.map((r) => r.address)).not.toContain(plain)
      expect(rows.map((r) => r.address)).not.toContain(w.tka)
    })

    test('default', async () => {
      const res = await positionsWith(side().store, 'value')
      const vaults = res.body.positions.filter((p: any) => p.type === 'Erc4626')
      expect(vaults.map((p: any) => [p.protocol, p.pool])).toEqual([['Unknown', vault]])
      const [p] = vaults
      const blockNumber = parseBlockNumbers(res.headers.get('x-scry-block-numbers')).get(
        String(CHAIN_ID),
      )!
      const call = async (functionName: string, args: unknown[]) =>
        (
          await w.pub.simulateContract({
            address: vault,
            abi: vaultAbi,
            functionName,
            args,
            account: lp,
            blockNumber: BigInt(blockNumber),
          })
        ).result as bigint
      const shares = await call('balanceOf', [lp])
      const redeemed = await call('redeem', [shares, lp, lp])
      expect(p.balance_raw).toBe(shares.toString())
      expect(p.preview_redeem_raw).toBe(redeemed.toString())
      expect(p.underlying_token.holdings_raw).toBe(redeemed.toString())
      expect(p.convert_to_assets_raw).toBe((await call('convertToAssets', [shares])).toString())
      expect(p.value_usd).toBeGreaterThan(0)
      // The hostile vault claims more than exists: skipped, never counted.
      expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'POSITIONS_SKIPPED' })])
    })

    test('behavior: unlistedVaults list shows holdings without USD value', async () => {
      const valued = await positionsWith(side().store, 'value')
      const listed = await positionsWith(side().store, 'list')
      const a = valued.body.positions.find((p: any) => p.pool === vault)
      const b = listed.body.positions.find((p: any) => p.pool === vault)
      expect(b.protocol).toBe('Unknown')
      expect(b.value_usd).toBe(0)
      expect(b.price_usd).toBeUndefined()
      expect(b.underlying_token.price_usd).toBeUndefined()
      expect([b.balance_raw, b.preview_redeem_raw, b.convert_to_assets_raw]).toEqual([
        a.balance_raw,
        a.preview_redeem_raw,
        a.convert_to_assets_raw,
      ])
    })

    test('behavior: a denied vault is never shown, denying another address changes nothing', async () => {
      const all = await positionsWith(side().store, 'value')
      const denied = await positionsWith(side().store, 'value', [vault])
      const other = await positionsWith(side().store, 'value', [plain])
      const pools = (res: typeof all) => res.body.positions.map((p: any) => p.pool)
      expect(pools(all)).toContain(vault)
      expect(pools(denied)).toEqual(pools(all).filter((p: string) => p !== vault))
      expect(other.body.positions).toEqual(all.body.positions)
    })

    test('behavior: unlistedVaults off leaves them out', async () => {
      const res = await positionsWith(side().store, 'off')
      expect(res.body.positions.filter((p: any) => p.type === 'Erc4626')).toEqual([])
      expect(res.body.warnings).toBeUndefined()
    })
  })
}

test('behavior: a reorg that drops the deployment drops the row', async () => {
  const before = Number(await w.pub.getBlockNumber({ cacheTime: 0 }))
  const again = await deployVault('Reorged vault')
  await deposit(again, parseEther('10'))
  await synced()
  for (const { side } of sides)
    expect((await defiTokens(side.store)).map((r) => r.address)).toContain(again)
  const depth = Number(await w.pub.getBlockNumber({ cacheTime: 0 })) - before
  await w.pub.request({
    method: 'anvil_reorg' as never,
    params: [depth, [[{ from: w.deployer, to: w.trader, value: '0x1' }, 0]]] as never,
  })
  await synced()
  for (const { side } of sides) {
    const rows = await defiTokens(side.store)
    expect(rows.map((r) => r.address)).not.toContain(again)
    expect(rows.map((r) => r.address)).toContain(vault)
  }
})

test('behavior: tokens stored before detection are probed once', async () => {
  const rpc = createRpcClient({ urls: [anvil.rpcUrl] })
  try {
    for (const { side } of sides) {
      const { db } = side.store.store
      // As migration 0011 leaves a store indexed before it: the tokens queued, no rows.
      await db.deleteFrom('defi_tokens').where('address', '=', vault).execute()
      await db
        .insertInto('defi_token_probes')
        .values([vault, plain, w.tka].map((address) => ({ chain_id: CHAIN_ID, address })))
        .execute()
      const done = await probeStoredTokens({ store: side.store.store, rpc, chainId: CHAIN_ID })
      expect(done).toEqual({ probed: 3, found: 1 })
      const rows = await defiTokens(side.store)
      expect(rows.find((r) => r.address === vault)?.underlying).toBe(w.tka)
      expect(rows.map((r) => r.address)).not.toContain(plain)
      expect(await db.selectFrom('defi_token_probes').selectAll().execute()).toEqual([])
      // Recorded: a second pass has nothing to do.
      expect(await probeStoredTokens({ store: side.store.store, rpc, chainId: CHAIN_ID })).toEqual({
        probed: 0,
        found: 0,
      })
    }
  } finally {
    rpc.close()
  }
})
