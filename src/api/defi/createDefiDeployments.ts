import type { ChainConfig } from '../../config/types.ts'
import { checkDefiDeployment } from '../../defi/checkDefiDeployment.ts'
import { type DefiDeployment, defiDeployment } from '../../defi/defiDeployments.ts'
import type { Logger } from '../../internal/logger.ts'
import type { ApiRpc } from '../createApiRpc.ts'

/** The DeFi deployments the API reads, each checked against its chain's node once. */
export type DefiDeployments = {
  /** The chain's deployment without the entries its node disowns (`checkDefiDeployment`). */
  forChain(chain: ChainConfig): Promise<DefiDeployment>
}

/**
 * Checks each chain's deployment (config `defiProtocols`, else shipped) the first time it is
 * needed and keeps the result: entries without code or identity are disabled with a warning
 * (mainnet addresses on a dev node with id 1, a mistyped address). While the node cannot be
 * asked, the deployment is used as configured and asked again on the next use.
 */
export function createDefiDeployments({
  evmRpc,
  logger,
}: {
  evmRpc: ApiRpc
  logger: Logger
}): DefiDeployments {
  const checked = new Map<number, Promise<DefiDeployment>>()
  return {
    forChain(chain) {
      const done = checked.get(chain.chainId)
      if (done) return done
      const configured = defiDeployment(chain)
      const rpc = evmRpc.forChain(chain.chainId)
      if (!rpc) return Promise.resolve(configured)
      const check = checkDefiDeployment({
        rpc,
        deployment: configured,
        signal: AbortSignal.timeout(10_000),
      }).then(
        ({ deployment, disabled }) => {
          for (const line of disabled)
            logger.warn({ chain_id: chain.chainId }, `DeFi deployment disabled: ${line}`)
          return deployment
        },
        (error: unknown) => {
          checked.delete(chain.chainId)
          logger.debug({ chain_id: chain.chainId, err: error }, 'DeFi deployment check failed')
          return configured
        },
      )
      checked.set(chain.chainId, check)
      return check
    },
  }
}
