import type { SvmChainConfig } from '../config/types.ts'
import type { RpcLogger } from '../evm/rpc/createRpcClient.ts'
import type { Store } from '../store/createStore.ts'
import { sumTokenAccounts } from './balances/sumTokenAccounts.ts'
import {
  type SvmBalanceRecord,
  toNativeRecord,
  toTokenRecord,
} from './balances/toSvmBalanceRecord.ts'
import { createSvmPricer, type SvmPricer } from './prices/createSvmPricer.ts'
import { NATIVE_MINT, TOKEN_PROGRAMS } from './programIds.ts'
import { createSvmRpc, type SvmRpc } from './rpc/createSvmRpc.ts'
import { SVM_DEFAULTS } from './svmDefaults.ts'
import { createTokenFacts, type TokenFactsService } from './tokens/createTokenFacts.ts'

/** One SVM chain as the API uses it: its node, mint facts, prices and balances. */
export type SvmChain = {
  name: SvmChainConfig['name']
  rpc: SvmRpc
  tokens: TokenFactsService
  pricer: SvmPricer
  /** Every balance of `wallet` on this chain: native first, then tokens by mint. */
  readBalances(wallet: string, signal?: AbortSignal): Promise<SvmBalanceRecord[]>
  close(): void
}

const SUPPLY_TTL_MS = 60_000

export function createSvmChain({
  config,
  store,
  logger,
}: {
  config: SvmChainConfig
  store: Store
  logger?: RpcLogger
}): SvmChain {
  const chain = config.name
  const rpc = createSvmRpc({
    urls: config.rpc,
    batchSize: config.rpcBatchSize,
    ...(logger ? { logger } : {}),
  })
  const tokens = createTokenFacts({ chain, rpc, store })
  const pricer = createSvmPricer({
    chain,
    rpc,
    store,
    tokens,
    usdcMint: config.usdcMint,
    dexPrograms: config.dexPrograms,
  })
  let supply: { value: Promise<bigint>; at: number } | undefined

  function nativeSupply(signal?: AbortSignal): Promise<bigint> {
    if (!supply || Date.now() - supply.at > SUPPLY_TTL_MS) {
      const value = rpc.getNativeSupply(signal)
      supply = { value, at: Date.now() }
      value.catch(() => {
        supply = undefined
      })
    }
    return supply.value
  }

  return {
    name: chain,
    rpc,
    tokens,
    pricer,
    async readBalances(wallet, signal) {
      const [lamports, total, ...accountLists] = await Promise.all([
        rpc.getBalance(wallet, signal),
        nativeSupply(signal),
        ...TOKEN_PROGRAMS.map((programId) =>
          rpc.getTokenAccountsByOwner({ owner: wallet, programId }, signal),
        ),
      ])
      const amounts = sumTokenAccounts(accountLists.flat())
      const mints = [...amounts.keys()].sort()
      const [facts, prices] = await Promise.all([
        tokens.getMany(mints, signal),
        pricer.getMany([NATIVE_MINT, ...mints], signal),
      ])
      const records = [
        toNativeRecord({
          chain,
          lamports,
          supply: total,
          native: SVM_DEFAULTS[chain].native,
          price: prices.get(NATIVE_MINT),
        }),
      ]
      for (const mint of mints) {
        const mintFacts = facts.get(mint)
        if (!mintFacts) continue
        records.push(
          toTokenRecord({
            chain,
            amount: amounts.get(mint)!,
            facts: mintFacts,
            price: prices.get(mint),
          }),
        )
      }
      return records
    },
    close() {
      rpc.close()
    },
  }
}
