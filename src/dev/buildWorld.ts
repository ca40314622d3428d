import type { Logger } from 'pino'
import {
  type Client,
  createClient,
  encodeAbiParameters,
  http,
  keccak256,
  numberToHex,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { readContract } from 'viem/actions'
import type { Address, Hex } from '../evm/types.ts'
import { BaseError } from '../internal/errors.ts'
import { loadArtifact } from './artifacts.ts'
import { compileContracts } from './compileContracts.ts'
import { createPrng } from './createPrng.ts'
import { createTxQueue } from './createTxQueue.ts'
import { createWorldActivity } from './createWorldActivity.ts'
import { deployWorld } from './deployWorld.ts'
import { V3_FEE } from './seedUniswap.ts'

export type TokenKind =
  | 'erc20'
  | 'weth'
  | 'rebasing'
  | 'fee'
  | 'bytes32'
  | 'reverting_name'
  | 'no_decimals'

export type WorldToken = {
  address: Address
  kind: TokenKind
  /** As the contract reports it; absent where symbol() reverts. */
  symbol?: string
  /** Absent where the contract has no decimals(). */
  decimals?: number
}

export type World = {
  chainId: number
  wallets: Address[]
  tokens: WorldToken[]
  /** Demo collections and the spam collection (Uniswap V3 positions are not listed). */
  nfts: { address: Address; standard: 'erc721' | 'erc1155' }[]
  weth: Address
  /** The demo dollar (DUSD, 6 decimals): the world's USD anchor for prices. */
  usd: Address
  forwarder: Address
  /** Called by `forwarder.splitVia` (nested internal calls). */
  forwarder2: Address
  uniswap: {
    v2Factory: Address
    v2Router: Address
    v3Factory: Address
    swapRouter: Address
    positionManager: Address
    quoter: Address
    /** V2 pairs DEMO/WETH and DEMO/DUSD, then the V3 DEMO/WETH 0.3 % pool. */
    pools: Address[]
  }
  spamNft: Address
  /** Receives the fee token's 2 % (it is one of `wallets`). */
  feeRecipient: Address
  startBlock: bigint
  endBlock: bigint
  stats: { transactions: number; ms: number }
}

export type BuildWorldOptions = {
  rpcUrl: string
  chainId: number
  /** Default 60: anvil's dev accounts, then generated ones funded with anvil_setBalance. */
  wallets?: number
  /** Same seed on a fresh node, same world. Default 1. */
  seed?: number
  /** Random actions after seeding (each about one transaction). Default 2,000. */
  transfers?: number
  /** Transactions per block. Default 100. */
  txsPerBlock?: number
  logger?: Logger
  onProgress?: (progress: {
    phase: 'deploy' | 'seed' | 'activity'
    done: number
    total: number
  }) => void
  signal?: AbortSignal
}

/**
 * Fills an anvil node with a demo world: wallets, ordinary and odd tokens, NFTs, WETH,
 * Uniswap V2/V3 liquidity and thousands of mixed transfers, many per block. Automine is off
 * while building and restored afterwards; generated wallets stay impersonated.
 */
export async function buildWorld({
  rpcUrl,
  chainId,
  wallets: walletCount = 60,
  seed = 1,
  transfers = 2000,
  txsPerBlock = 100,
  logger,
  onProgress,
  signal,
}: BuildWorldOptions): Promise<World> {
  const started = performance.now()
  const client = createDevClient(rpcUrl)
  const rpc = <T>(method: string, params: unknown[] = []) =>
    client.request<{ method: string; params: unknown[]; ReturnType: T }>({ method, params })

  const nodeChainId = Number(await rpc<Hex>('eth_chainId'))
  if (nodeChainId !== chainId)
    throw new BaseError(`The node's chain id is ${nodeChainId}, not ${chainId}.`)
  const compiled = await compileContracts()
  const accounts = (await rpc<Address[]>('eth_accounts')).map((a) => a.toLowerCase() as Address)
  const deployer = accounts[0]
  if (!deployer) throw new BaseError('The node has no unlocked accounts to deploy from.')
  const generated = Array.from({ length: Math.max(0, walletCount - accounts.length) }, (_, i) =>
    generatedWallet({ seed, index: i }),
  )
  const wallets = [...accounts.slice(0, walletCount), ...generated]
  await Promise.all(
    generated.flatMap((w) => [
      rpc('anvil_setBalance', [w, numberToHex(parseEther('1000'))]),
      rpc('anvil_impersonateAccount', [w]),
    ]),
  )

  const automine = await rpc<boolean>('anvil_getAutomine')
  await rpc('evm_setAutomine', [false])
  try {
    const startBlock = BigInt(await rpc<Hex>('eth_blockNumber')) + 1n
    const queue = createTxQueue({ client, maxTxsPerBlock: txsPerBlock })
    onProgress?.({ phase: 'deploy', done: 0, total: 1 })
    const feeRecipient = wallets[wallets.length - 1]!
    const k = await deployWorld({ client, queue, compiled, deployer, feeRecipient })
    onProgress?.({ phase: 'deploy', done: 1, total: 1 })
    signal?.throwIfAborted()

    const prng = createPrng(seed)
    const activity = createWorldActivity({ prng, queue, compiled, contracts: k, wallets, deployer })
    const flush = async () => {
      signal?.throwIfAborted()
      activity.model.afterFlush(await queue.flush())
    }
    activity.seed()
    await flush()
    activity.seedUniswap()
    await flush()
    onProgress?.({ phase: 'seed', done: 1, total: 1 })

    const rebaseAt = new Set([0.2, 0.5, 0.8].map((f) => Math.floor(transfers * f)))
    const airdropAt = Math.floor(transfers * 0.4)
    for (let i = 0; i < transfers; i++) {
      if (rebaseAt.has(i)) {
        // Alone in its block: the model's balances must not move under queued transfers.
        await flush()
        activity.rebase()
        await flush()
      }
      if (i === airdropAt) activity.airdrop()
      activity.randomAction()
      if (queue.size >= txsPerBlock) {
        await flush()
        onProgress?.({ phase: 'activity', done: i + 1, total: transfers })
      }
    }
    // Deferred actions (transferFrom after approve) queue more on each flush.
    while (queue.size > 0) await flush()
    onProgress?.({ phase: 'activity', done: transfers, total: transfers })

    const pools = await readPools({ client, k })
    const endBlock = BigInt(await rpc<Hex>('eth_blockNumber'))
    const tokens: WorldToken[] = [
      { address: k.weth, kind: 'weth', symbol: 'WETH', decimals: 18 },
      ...k.demoTokens.map((t) => ({
        address: t.address,
        kind: 'erc20' as const,
        symbol: t.symbol,
        decimals: t.decimals,
      })),
      { address: k.rebasing, kind: 'rebasing', symbol: 'rDEMO', decimals: 18 },
      { address: k.fee, kind: 'fee', symbol: 'FEE', decimals: 18 },
      { address: k.bytes32, kind: 'bytes32', symbol: 'MKR', decimals: 18 },
      { address: k.revertingName, kind: 'reverting_name', symbol: 'NONAME', decimals: 18 },
      { address: k.revertingNameAndSymbol, kind: 'reverting_name', decimals: 18 },
      { address: k.noDecimals, kind: 'no_decimals', symbol: 'NODEC' },
    ]
    const ms = Math.round(performance.now() - started)
    logger?.info(
      {
        chain_id: chainId,
        transactions: queue.sent,
        blocks: Number(endBlock - startBlock) + 1,
        ms,
      },
      'Demo world built',
    )
    return {
      chainId,
      wallets,
      tokens,
      nfts: [
        { address: k.erc721[0], standard: 'erc721' },
        { address: k.erc721[1], standard: 'erc721' },
        { address: k.erc1155, standard: 'erc1155' },
        { address: k.spamNft, standard: 'erc721' },
      ],
      weth: k.weth,
      usd: k.demoTokens[1]!.address,
      forwarder: k.forwarder,
      forwarder2: k.forwarder2,
      uniswap: {
        v2Factory: k.v2Factory,
        v2Router: k.v2Router,
        v3Factory: k.v3Factory,
        swapRouter: k.swapRouter,
        positionManager: k.positionManager,
        quoter: k.quoter,
        pools,
      },
      spamNft: k.spamNft,
      feeRecipient,
      startBlock,
      endBlock,
      stats: { transactions: queue.sent, ms },
    }
  } finally {
    await rpc('evm_setAutomine', [automine]).catch(() => undefined)
  }
}

/** A viem client that batches concurrent JSON-RPC requests into one HTTP request. */
export function createDevClient(rpcUrl: string): Client {
  return createClient({
    transport: http(rpcUrl, { batch: { batchSize: 1000 }, retryCount: 0, timeout: 120_000 }),
  })
}

/** Generated wallets have real keys (derived from the seed), though the world impersonates. */
function generatedWallet({ seed, index }: { seed: number; index: number }): Address {
  const key = keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'uint256' }, { type: 'uint256' }],
      ['scry-dev-wallet', BigInt(seed), BigInt(index)],
    ),
  )
  return privateKeyToAccount(key).address.toLowerCase() as Address
}

async function readPools({
  client,
  k,
}: {
  client: Client
  k: Awaited<ReturnType<typeof deployWorld>>
}): Promise<Address[]> {
  const demo = k.demoTokens[0]!.address
  const dusd = k.demoTokens[1]!.address
  const v2 = loadArtifact('UniswapV2Factory').abi
  const pools = await Promise.all([
    readContract(client, {
      address: k.v2Factory,
      abi: v2,
      functionName: 'getPair',
      args: [demo, k.weth],
    }),
    readContract(client, {
      address: k.v2Factory,
      abi: v2,
      functionName: 'getPair',
      args: [demo, dusd],
    }),
    readContract(client, {
      address: k.v3Factory,
      abi: loadArtifact('UniswapV3Factory').abi,
      functionName: 'getPool',
      args: [demo, k.weth, V3_FEE],
    }),
  ])
  return pools.map((p) => String(p).toLowerCase() as Address)
}
