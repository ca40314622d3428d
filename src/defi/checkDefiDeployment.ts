import { type ContractFunctionName, encodeFunctionData, parseAbi } from 'viem'
import type { RpcClient } from '../evm/rpc/createRpcClient.ts'
import type { Address, Hex } from '../evm/types.ts'
import { decodeAddressWord } from './decodeAddressWord.ts'
import type { DefiDeployment } from './defiDeployments.ts'

const IDENTITY_ABI = parseAbi([
  'function factory() view returns (address)',
  'function poolManager() view returns (address)',
  'function ADDRESSES_PROVIDER() view returns (address)',
  'function getAddressesProvider() view returns (address)',
  'function asset() view returns (address)',
  'function stETH() view returns (address)',
  'function getTotalShares() view returns (uint256)',
])
type Identity = ContractFunctionName<typeof IDENTITY_ABI>

/** One thing to check: code at `address` and an identity call that answers (as `expect`). */
type Probe = {
  what: string
  address: Address
  call: Identity
  /** The address the call must answer; any non-zero address (or uint) where absent. */
  expect?: Address
}

/**
 * Checks a chain's DeFi deployment against its node at the latest block: every entry must
 * have code and answer its identity call (a V3 manager its `factory()`, a V4 PositionManager
 * and StateView their `poolManager()`, an Aave V3 Pool its `ADDRESSES_PROVIDER()`, an Aave V2
 * LendingPool its `getAddressesProvider()` (each only on its own version), a vault its
 * `asset()`, stETH `getTotalShares()` and wstETH `stETH()`). Returns the deployment without
 * the entries that failed, and a line per failure. Transport errors throw: the caller keeps
 * the deployment as configured and asks again later.
 */
export async function checkDefiDeployment({
  rpc,
  deployment,
  signal,
}: {
  rpc: RpcClient
  deployment: DefiDeployment
  signal?: AbortSignal | undefined
}): Promise<{ deployment: DefiDeployment; disabled: string[] }> {
  const lido = deployment.lido
  const probes = {
    v3: deployment.v3Managers.map((m): Probe[] => [
      { what: `${m.protocol} position manager`, address: m.address, call: 'factory' },
    ]),
    v4: (deployment.v4Managers ?? []).map((m): Probe[] => [
      {
        what: `${m.protocol} PositionManager`,
        address: m.positionManager,
        call: 'poolManager',
        expect: m.poolManager,
      },
      {
        what: `${m.protocol} StateView`,
        address: m.stateView,
        call: 'poolManager',
        expect: m.poolManager,
      },
    ]),
    aaveV3: (deployment.aaveV3Pools ?? []).map((pool): Probe[] => [
      { what: 'Aave V3 Pool', address: pool, call: 'ADDRESSES_PROVIDER' },
    ]),
    aaveV2: (deployment.aaveV2Pools ?? []).map((pool): Probe[] => [
      { what: 'Aave V2 LendingPool', address: pool, call: 'getAddressesProvider' },
    ]),
    vaults: deployment.vaults.map((v): Probe[] => [
      { what: `${v.protocol} vault`, address: v.address, call: 'asset' },
    ]),
    lido: lido
      ? [
          [
            { what: 'Lido stETH', address: lido.stEth, call: 'getTotalShares' },
            { what: 'Lido wstETH', address: lido.wstEth, call: 'stETH', expect: lido.stEth },
          ] satisfies Probe[],
        ]
      : [],
  }
  const all = Object.values(probes).flat(2)
  if (all.length === 0) return { deployment, disabled: [] }
  const answers = await rpc.batch<Hex>(
    all.flatMap((p) => [
      { method: 'eth_getCode', params: [p.address, 'latest'] },
      {
        method: 'eth_call',
        params: [
          { to: p.address, data: encodeFunctionData({ abi: IDENTITY_ABI, functionName: p.call }) },
          'latest',
        ],
      },
    ]),
    signal ? { signal } : {},
  )
  const disabled: string[] = []
  const verdicts = new Map<Probe, boolean>()
  for (const [i, p] of all.entries()) {
    const code = answers[2 * i]
    const call = answers[2 * i + 1]
    // Transport failures throw from `batch`; an item is the node's own answer.
    if (!code) throw new Error(`No answer for ${p.what}.`)
    const hasCode = code.ok && typeof code.result === 'string' && code.result !== '0x'
    const result = call?.ok && typeof call.result === 'string' ? (call.result as Hex) : undefined
    const address = decodeAddressWord(result)
    const answered =
      p.call === 'getTotalShares'
        ? result !== undefined && /^0x[0-9a-f]{64}$/i.test(result)
        : address !== undefined && (p.expect === undefined || address === p.expect)
    const ok = hasCode && answered
    verdicts.set(p, ok)
    if (!ok)
      disabled.push(
        `${p.what} ${p.address}: ${hasCode ? `${p.call}() did not answer as expected` : 'no code'}`,
      )
  }
  const passes = (group: Probe[]) => group.every((p) => verdicts.get(p))
  const keep = <T>(items: readonly T[], groups: Probe[][]) =>
    items.filter((_, i) => passes(groups[i]!))
  return {
    deployment: {
      ...deployment,
      v3Managers: keep(deployment.v3Managers, probes.v3),
      v4Managers: keep(deployment.v4Managers ?? [], probes.v4),
      v2Protocols: deployment.v2Protocols,
      vaults: keep(deployment.vaults, probes.vaults),
      aaveV3Pools: keep(deployment.aaveV3Pools ?? [], probes.aaveV3),
      aaveV2Pools: keep(deployment.aaveV2Pools ?? [], probes.aaveV2),
      lido: lido && passes(probes.lido[0]!) ? lido : undefined,
    },
    disabled,
  }
}
