import { Type } from 'typebox'
import { CHAIN_ENDPOINTS } from '../../chains/catalogue.ts'
import { ConfigError } from '../../internal/errors.ts'
import type { IndexerHolder } from '../../store/readIndexerHolders.ts'
import { readReplicaLag } from '../../store/readReplicaLag.ts'
import { ApiError } from '../ApiError.ts'
import type { RouteModule } from '../createApiServer.ts'
import type { ProfileShape } from '../profiles/registerProfiles.ts'
import { readChainLags } from '../readChainLags.ts'

/** /health, /ready, /v1/status and /v1/evm/supported-chains. */
export const systemRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: Type.Object({ status: Type.String() }) } },
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: Type.Object({ status: Type.String() }) } },
    },
    async () => {
      for (const [store, what] of [
        [ctx.store, 'The database'],
        [ctx.reads, 'The read replica (databaseRead)'],
      ] as const) {
        await store.ping().catch((error) => {
          // Reached, but not a Scry database at this version (a replica's schema behind).
          const why =
            error instanceof ConfigError
              ? `${what}: ${error.shortMessage}`
              : `${what} is unreachable.`
          throw new ApiError('UNAVAILABLE', why, { headers: { 'Retry-After': '5' }, cause: error })
        })
      }
      // This process's indexers (in memory), and on PostgreSQL what a holder recorded.
      for (const [chainId, stopped] of await ctx.stoppedChains()) {
        const name = ctx.chains.find((c) => c.chainId === chainId)?.name ?? 'unnamed'
        throw new ApiError(
          'UNAVAILABLE',
          `The indexer of chain ${chainId} (${name}) stopped, and its answers no longer follow the node: ${stopped}`,
          { headers: { 'Retry-After': '60' } },
        )
      }
      const max = ctx.readyMaxLagBlocks
      if (max !== undefined) {
        const lags = (await readChainLags(ctx)).map((c) => c.lag)
        // A chain whose node's head is unknown (no indexer reports it, or its node stopped
        // answering) cannot be shown to be fresh: it counts as behind.
        if (lags.length > 0 && lags.every((lag) => lag === null || lag > max)) {
          throw new ApiError(
            'UNAVAILABLE',
            `Every chain is more than ${max} blocks behind its node, or its node's head is unknown (server.readyMaxLagBlocks).`,
            { headers: { 'Retry-After': '30' } },
          )
        }
      }
      return { status: 'ready' }
    },
  )

  const StatusChain = Type.Object({
    chain_id: Type.Integer(),
    name: Type.String(),
    indexed_block: Type.Union([Type.Integer(), Type.Null()]),
    indexed_block_hash: Type.Union([Type.String(), Type.Null()]),
    node_head: Type.Union([Type.Integer(), Type.Null()]),
    lag_blocks: Type.Union([Type.Integer(), Type.Null()]),
    finalized_block: Type.Union([Type.Integer(), Type.Null()]),
    indexer: Type.Union(
      [
        Type.Object({
          host: Type.String(),
          pid: Type.Integer(),
          since: Type.String({ description: 'ISO 8601: when this process took the chain' }),
          active: Type.Boolean({
            description: 'false: it stopped and no standby has taken over yet',
          }),
        }),
        Type.Null(),
      ],
      {
        description:
          'PostgreSQL: the process that writes this chain (standby indexers); null on SQLite',
      },
    ),
    stopped: Type.Union([Type.String(), Type.Null()], {
      description:
        "Why the chain's indexer stopped (a reorg deeper than finalityDepth; this process's, or on PostgreSQL the one that held the chain): its answers no longer follow the node until the chain is reset (scry reset-chain) and Scry restarted; null while it runs",
    }),
    replica_lag_blocks: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Blocks the read replica (databaseRead) is behind the primary; null without one',
    }),
  })
  const ReadReplica = Type.Union(
    [
      Type.Object({
        lag_seconds: Type.Union([Type.Number(), Type.Null()], {
          description: 'Replay lag of a streaming standby; null when it is not one, or unreachable',
        }),
        reachable: Type.Boolean({
          description: 'false: the replica did not answer (data answers are 503 meanwhile)',
        }),
      }),
      Type.Null(),
    ],
    { description: 'The read replica API answers come from (databaseRead); null without one' },
  )
  app.get(
    '/v1/status',
    {
      schema: {
        summary: 'Indexing status per chain',
        response: {
          200: Type.Object({ chains: Type.Array(StatusChain), read_replica: ReadReplica }),
        },
      },
    },
    async () => {
      const lags = await readChainLags(ctx)
      const chains = lags.map(({ chain, checkpoint, head, holder, lag, replicaLag, stopped }) => {
        const indexed = checkpoint?.blockNumber ?? null
        return {
          chain_id: chain.chainId,
          name: chain.name,
          indexed_block: indexed,
          indexed_block_hash: checkpoint?.blockHash ?? null,
          node_head: head ?? null,
          lag_blocks: lag,
          finalized_block:
            indexed === null
              ? null
              : Math.max(0, Math.min(indexed, (head ?? indexed) - chain.finalityDepth)),
          indexer: toHolderJson(holder),
          stopped,
          replica_lag_blocks: replicaLag,
        }
      })
      const read_replica =
        ctx.reads === ctx.store
          ? null
          : await readReplicaLag(ctx.reads).then(
              (lag_seconds) => ({ lag_seconds, reachable: true }),
              () => ({ lag_seconds: null, reachable: false }),
            )
      return { chains, read_replica }
    },
  )

  const Supported = Type.Object({ supported: Type.Boolean() })
  const endpointFields = Object.fromEntries(CHAIN_ENDPOINTS.map((e) => [e, Supported]))
  const tags = Type.Array(Type.String())
  // The `sim` profile names the chain id `id`, as the hosted API's published schema does.
  const simChains: ProfileShape = {
    schema: Type.Object({
      chains: Type.Array(
        Type.Object({ id: Type.Integer(), name: Type.String(), tags, ...endpointFields }),
      ),
    }),
    from: (body: { chains: { chain_id: number }[] }) => ({
      chains: body.chains.map(({ chain_id, ...rest }) => ({ id: chain_id, ...rest })),
    }),
  }
  app.get(
    '/v1/evm/supported-chains',
    {
      config: { public: true, profiles: { sim: simChains } },
      schema: {
        summary: 'Chains this instance serves, with endpoint support',
        response: {
          200: Type.Object({
            chains: Type.Array(
              Type.Object({
                name: Type.String(),
                chain_id: Type.Integer(),
                tags,
                ...endpointFields,
              }),
            ),
          }),
        },
      },
    },
    async (request, reply) => {
      reply.header('X-Compute-Units-Cost', '0')
      void request
      const enabled = new Set(ctx.chains.map((c) => c.chainId))
      return {
        chains: ctx.catalogue
          .filter((c) => enabled.has(c.chainId))
          .map((c) => ({
            name: c.name,
            chain_id: c.chainId,
            tags: [...c.tags],
            ...Object.fromEntries(CHAIN_ENDPOINTS.map((e) => [e, { supported: c.endpoints[e] }])),
          })),
      }
    },
  )
}

const toHolderJson = (holder: IndexerHolder | undefined) =>
  holder
    ? {
        host: holder.host,
        pid: holder.pid,
        since: new Date(holder.since * 1000).toISOString(),
        active: holder.active,
      }
    : null
