import type { Address } from '../evm/types.ts'
import { type ArtifactName, loadArtifact } from './artifacts.ts'
import type { AnvilActions } from './createAnvilActions.ts'
import { linkBytecode } from './linkBytecode.ts'

/**
 * Deploys, sends to and reads from contracts by npm artifact name, all from one account:
 * `deploy` fills a Hardhat artifact's library placeholders from `libraries` (by library name)
 * first; `addressOf` answers an address getter lowercase.
 */
export function createArtifactActions({
  actions,
  from,
}: {
  actions: Pick<AnvilActions, 'deploy' | 'send' | 'call'>
  from: Address
}) {
  return {
    deploy(
      name: ArtifactName,
      args: readonly unknown[] = [],
      libraries: Record<string, Address> = {},
    ): Promise<Address> {
      const artifact = loadArtifact(name)
      const bytecode = artifact.linkReferences
        ? linkBytecode({
            bytecode: artifact.bytecode,
            linkReferences: artifact.linkReferences,
            libraries,
          })
        : artifact.bytecode
      return actions.deploy({ from, artifact: { abi: artifact.abi, bytecode }, args })
    },
    send(to: Address, name: ArtifactName, functionName: string, args: readonly unknown[]) {
      return actions.send({ from, to, abi: loadArtifact(name).abi, functionName, args })
    },
    async addressOf(to: Address, name: ArtifactName, functionName: string): Promise<Address> {
      const answer = await actions.call<Address>({ to, abi: loadArtifact(name).abi, functionName })
      return answer.toLowerCase() as Address
    },
  }
}
