import type { DefiLido } from '../defi/defiDeployments.ts'
import type { Address } from '../evm/types.ts'
import { compileContracts } from './compileContracts.ts'
import type { AnvilActions } from './createAnvilActions.ts'

/**
 * Deploys the dev stETH and wstETH (`DemoStETH`, `DemoWstETH`: Lido's behaviour) from `from`,
 * which becomes the stETH operator allowed to `report`. Register the result as the chain's
 * `defi.lido` (`worldDefi(world, { lido })`) so positions read it instead of mainnet's addresses.
 */
export async function deployLido({
  actions,
  from,
}: {
  actions: Pick<AnvilActions, 'deploy'>
  from: Address
}): Promise<DefiLido> {
  const compiled = await compileContracts()
  const stEth = await actions.deploy({ from, artifact: compiled.DemoStETH })
  const wstEth = await actions.deploy({ from, artifact: compiled.DemoWstETH, args: [stEth] })
  const lower = (address: Address) => address.toLowerCase() as Address
  return { stEth: lower(stEth), wstEth: lower(wstEth) }
}
