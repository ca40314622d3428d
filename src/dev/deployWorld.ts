import { type Abi, type Client, encodeDeployData, stringToHex } from 'viem'
import type { Address, Hex } from '../evm/types.ts'
import { loadArtifact } from './artifacts.ts'
import type { CompiledContracts } from './compileContracts.ts'
import type { TxQueue } from './createTxQueue.ts'

export type DemoTokenSpec = { name: string; symbol: string; decimals: number }

/** The plain ERC20s of the demo world, with a spread of decimals. */
export const DEMO_TOKENS: readonly DemoTokenSpec[] = [
  { name: 'Demo Token', symbol: 'DEMO', decimals: 18 },
  { name: 'Demo Dollar', symbol: 'DUSD', decimals: 6 },
  { name: 'Demo Bitcoin', symbol: 'DBTC', decimals: 8 },
  { name: 'Demo Governance', symbol: 'DGOV', decimals: 18 },
  { name: 'Demo Whole', symbol: 'WHOLE', decimals: 0 },
]

export type DeployedContracts = {
  weth: Address
  demoTokens: (DemoTokenSpec & { address: Address })[]
  rebasing: Address
  fee: Address
  bytes32: Address
  revertingName: Address
  /** name() and symbol() both revert. */
  revertingNameAndSymbol: Address
  noDecimals: Address
  /** [inline data: metadata, ipfs:// metadata] */
  erc721: [Address, Address]
  erc1155: Address
  forwarder: Address
  /** A second forwarder, for nested calls. */
  forwarder2: Address
  spamNft: Address
  v2Factory: Address
  v2Router: Address
  v3Factory: Address
  swapRouter: Address
  positionManager: Address
  quoter: Address
}

type Deployment = { key: string; abi: Abi; bytecode: Hex; args?: readonly unknown[] }

/**
 * Deploys every contract of the demo world from `deployer`, in two rounds (Uniswap periphery
 * takes the addresses of the first round). `feeRecipient` receives the fee token's 2 %.
 */
export async function deployWorld({
  client,
  queue,
  compiled,
  deployer,
  feeRecipient,
}: {
  client: Client
  queue: TxQueue
  compiled: CompiledContracts
  deployer: Address
  feeRecipient: Address
}): Promise<DeployedContracts> {
  const c = compiled
  const art = loadArtifact
  const first: Deployment[] = [
    { key: 'weth', ...art('WETH9') },
    ...DEMO_TOKENS.map((t) => ({
      key: `demo:${t.symbol}`,
      ...c.DemoERC20,
      args: [t.name, t.symbol, t.decimals],
    })),
    { key: 'rebasing', ...c.RebasingToken, args: ['Rebasing Demo', 'rDEMO'] },
    { key: 'fee', ...c.FeeOnTransferToken, args: ['Fee Demo', 'FEE', feeRecipient] },
    {
      key: 'bytes32',
      ...c.Bytes32MetadataToken,
      args: [stringToHex('Maker', { size: 32 }), stringToHex('MKR', { size: 32 })],
    },
    { key: 'revertingName', ...c.RevertingNameToken, args: ['NONAME'] },
    { key: 'revertingNameAndSymbol', ...c.RevertingNameToken, args: [''] },
    { key: 'noDecimals', ...c.NoDecimalsToken, args: ['No Decimals', 'NODEC'] },
    { key: 'erc721a', ...c.DemoERC721, args: ['Demo Punks', 'DPUNK', true, ''] },
    {
      key: 'erc721b',
      ...c.DemoERC721,
      args: [
        'Demo Apes',
        'DAPE',
        false,
        'ipfs://bafybeihpjhkeuiq3k6nqa3fkgeigeri7iebtrsuyuey5y6vy36n345xmbi/',
      ],
    },
    {
      key: 'erc1155',
      ...c.DemoERC1155,
      args: [
        'Demo Items',
        'DITEM',
        'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/{id}.json',
      ],
    },
    { key: 'forwarder', ...c.EthForwarder },
    { key: 'forwarder2', ...c.EthForwarder },
    { key: 'spamNft', ...c.SpamAirdropper },
    { key: 'v2Factory', ...art('UniswapV2Factory'), args: [deployer] },
    { key: 'v3Factory', ...art('UniswapV3Factory') },
  ]
  const a = await deployAll({ client, queue, deployer, deployments: first })
  const second: Deployment[] = [
    { key: 'v2Router', ...art('UniswapV2Router02'), args: [a.v2Factory, a.weth] },
    { key: 'swapRouter', ...art('SwapRouter'), args: [a.v3Factory, a.weth] },
    // The token descriptor only serves tokenURI, which the demo never calls.
    {
      key: 'positionManager',
      ...art('NonfungiblePositionManager'),
      args: [a.v3Factory, a.weth, deployer],
    },
    { key: 'quoter', ...art('QuoterV2'), args: [a.v3Factory, a.weth] },
  ]
  const b = await deployAll({ client, queue, deployer, deployments: second })
  const at = (key: string) => (a[key] ?? b[key])!
  return {
    weth: at('weth'),
    demoTokens: DEMO_TOKENS.map((t) => ({ ...t, address: at(`demo:${t.symbol}`) })),
    rebasing: at('rebasing'),
    fee: at('fee'),
    bytes32: at('bytes32'),
    revertingName: at('revertingName'),
    revertingNameAndSymbol: at('revertingNameAndSymbol'),
    noDecimals: at('noDecimals'),
    erc721: [at('erc721a'), at('erc721b')],
    erc1155: at('erc1155'),
    forwarder: at('forwarder'),
    forwarder2: at('forwarder2'),
    spamNft: at('spamNft'),
    v2Factory: at('v2Factory'),
    v2Router: at('v2Router'),
    v3Factory: at('v3Factory'),
    swapRouter: at('swapRouter'),
    positionManager: at('positionManager'),
    quoter: at('quoter'),
  }
}

async function deployAll({
  client,
  queue,
  deployer,
  deployments,
}: {
  client: Client
  queue: TxQueue
  deployer: Address
  deployments: Deployment[]
}): Promise<Record<string, Address>> {
  if (queue.size > 0) throw new Error('deployAll needs an empty queue to match its receipts.')
  const datas = deployments.map((d) =>
    encodeDeployData({ abi: d.abi, bytecode: d.bytecode, args: d.args ?? [] }),
  )
  // Deployments do not depend on each other's state, so estimating up front is exact.
  const estimates = await Promise.all(
    datas.map((data) =>
      client.request<{ method: 'eth_estimateGas'; params: unknown[]; ReturnType: Hex }>({
        method: 'eth_estimateGas',
        params: [{ from: deployer, data }],
      }),
    ),
  )
  deployments.forEach((d, i) => {
    queue.add({
      from: deployer,
      data: datas[i]!,
      gas: (BigInt(estimates[i]!) * 12n) / 10n,
      label: `deploy ${d.key}`,
    })
  })
  const receipts = await queue.flush()
  const addresses: Record<string, Address> = {}
  deployments.forEach((d, i) => {
    addresses[d.key] = receipts[i]!.contractAddress!.toLowerCase() as Address
  })
  return addresses
}
