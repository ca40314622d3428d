import { type Static, Type } from 'typebox'
import { createSpamScorer } from '../../nft/createSpamScorer.ts'
import { isSpamScore, type SpamExplanation } from '../../nft/scoreCollection.ts'
import type { NftAttribute } from '../../nft/shapeMetadata.ts'
import { DEFAULT_SPAM_LIST, type SpamList } from '../../nft/spamList.ts'
import { fromU256, isStoredU256 } from '../../store/u256.ts'
import { escapeUri } from '../../utils/escapeUri.ts'
import { formatTime } from '../../utils/formatTime.ts'
import { markChainsRead } from '../blockNumbersHeader.ts'
import type { RouteModule } from '../createApiServer.ts'
import {
  AddressParam,
  AnswerTimesSchema,
  answerTimes,
  ChainIdsQuery,
  chainName,
  clampLimit,
  FlagQuery,
  INVALID_OFFSET,
  LimitQuery,
  lower,
  OffsetQuery,
  parseChainIds,
  parseFlag,
  type Warning,
  WarningSchema,
} from '../params.ts'
import type { ProfileShape } from '../profiles/registerProfiles.ts'
import { meterRequest } from '../registerAuth.ts'

const DEFAULT_LIMIT = 250
const MAX_LIMIT = 500
/** With spam hidden, a page reads at most this many batches before answering short. */
const MAX_SCAN_ROUNDS = 5

/** The published attribute shape: `key` = trait_type ('' when absent), `format` = display_type. */
const Attribute = Type.Object({
  key: Type.String(),
  value: Type.String({ description: 'Numbers and booleans as text' }),
  format: Type.Optional(Type.String({ description: 'display_type, e.g. number, date' })),
})

const Explanation = Type.Object({
  feature: Type.String(),
  value: Type.Optional(Type.Union([Type.Number(), Type.Boolean(), Type.String()])),
  feature_score: Type.Number(),
  feature_weight: Type.Number({ description: 'Share of the weight in the average (0–1)' }),
})

const Collectible = Type.Object({
  chain: Type.String(),
  chain_id: Type.Integer(),
  contract_address: Type.String(),
  token_id: Type.String({ description: 'Decimal' }),
  token_standard: Type.Union([Type.Literal('ERC721'), Type.Literal('ERC1155')]),
  name: Type.Optional(Type.String({ description: 'Collection name' })),
  symbol: Type.Optional(Type.String({ description: 'Collection symbol' })),
  balance: Type.String(),
  is_spam: Type.Boolean(),
  spam_score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  explanations: Type.Optional(Type.Array(Explanation)),
  description: Type.Optional(Type.String()),
  image_url: Type.Optional(Type.String()),
  metadata: Type.Optional(
    Type.Object({
      uri: Type.Optional(Type.String()),
      attributes: Type.Optional(Type.Array(Attribute)),
    }),
  ),
  last_acquired: Type.String(),
})

const listFields = {
  warnings: Type.Optional(Type.Array(WarningSchema)),
  next_offset: Type.Optional(Type.String()),
  ...AnswerTimesSchema,
}
const CollectiblesResponse = Type.Object({
  wallet_address: Type.String(),
  collectibles: Type.Array(Collectible),
  ...listFields,
})
type CollectiblesJson = Static<typeof CollectiblesResponse>

/** The `sim` profile: the published names `address` and `entries`. */
const simCollectibles: ProfileShape = {
  schema: Type.Object({
    address: Type.String(),
    entries: Type.Array(Collectible),
    ...listFields,
  }),
  from: ({ wallet_address, collectibles, ...rest }: CollectiblesJson) => ({
    address: wallet_address,
    entries: collectibles,
    ...rest,
  }),
}

type Position = [chainId: number, contract: string, tokenId: string]

/**
 * GET /v1/evm/collectibles/{address}: the wallet's ERC721 and ERC1155 holdings. Order: the
 * holdings key (chain_id, contract, token_id ascending; token ids numerically), a keyset scan
 * on nft_holdings' primary key. Spam is judged per item (`createSpamScorer`); with
 * `filter_spam` (default) spam items are skipped, so a page may hold fewer than `limit`.
 */
export function createCollectiblesRoutes({
  spamList = DEFAULT_SPAM_LIST,
}: {
  /** The operator's list of flagged and classified collections (default: empty). */
  spamList?: SpamList
} = {}): RouteModule {
  return (app, ctx) => {
    const scorer = createSpamScorer({ db: ctx.reads.db, spamList })

    app.get(
      '/v1/evm/collectibles/:address',
      {
        config: { profiles: { sim: simCollectibles } },
        schema: {
          summary: 'NFTs (ERC721, ERC1155) held by a wallet',
          params: Type.Object({ address: AddressParam }),
          querystring: Type.Object({
            chain_ids: ChainIdsQuery,
            filter_spam: FlagQuery,
            show_spam_scores: FlagQuery,
            offset: OffsetQuery,
            limit: LimitQuery,
          }),
          response: { 200: CollectiblesResponse },
        },
      },
      async (request, reply) => {
        const address = lower(request.params.address)
        const q = request.query
        const filterSpam = parseFlag(q.filter_spam, 'filter_spam', true)
        const showScores = parseFlag(q.show_spam_scores, 'show_spam_scores', false)
        const limit = clampLimit(q.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT })
        const { chainIds, warnings } = parseChainIds({
          ctx,
          input: q.chain_ids,
          endpoint: 'collectibles',
        })
        await meterRequest({ ctx, request, reply, cost: chainIds.length })
        await markChainsRead({ store: ctx.reads, reply, chainIds })

        const scope = `collectibles|${address}|${chainIds.join(',')}|filter_spam=${filterSpam}`
        let position: Position | undefined
        if (q.offset !== undefined) {
          position = readPosition(ctx.cursors.decode(scope, q.offset))
          if (!position) warnings.push(INVALID_OFFSET)
        }

        const collectibles: CollectibleItem[] = []
        let nextPosition: Position | undefined
        if (chainIds.length > 0) {
          let from = position
          for (let round = 0; ; round++) {
            const rows = await readHoldings({ address, chainIds, from, take: limit + 1 })
            const scores = await scorer.score(
              rows.map((r) => ({
                chainId: r.chain_id,
                contract: r.contract,
                collectionName: r.collection_name,
                collectionSymbol: r.collection_symbol,
                name: r.meta_name,
                description: r.description,
                uri: r.uri,
              })),
            )
            let full = false
            for (const [i, row] of rows.entries()) {
              const spam = scores[i] ?? { score: 0, explanations: [] }
              const isSpam = isSpamScore(spam.score)
              from = [row.chain_id, row.contract, row.token_id]
              if (filterSpam && isSpam) continue
              if (collectibles.length === limit) {
                // One more visible item exists: the page ends at the last one returned.
                full = true
                break
              }
              collectibles.push(
                toItem({ row, isSpam, chain: chainName(ctx, row.chain_id), spam, showScores }),
              )
              nextPosition = from
            }
            if (full) break
            if (rows.length < limit + 1) {
              nextPosition = undefined
              break
            }
            if (round + 1 >= MAX_SCAN_ROUNDS) {
              // Many hidden items in a row: answer short, continue after the last one read.
              nextPosition = from
              break
            }
          }
        }

        return {
          wallet_address: address,
          collectibles,
          ...(warnings.length > 0 ? { warnings: warnings as Warning[] } : {}),
          ...(nextPosition ? { next_offset: ctx.cursors.encode(scope, nextPosition) } : {}),
          ...answerTimes(reply),
        }
      },
    )

    async function readHoldings({
      address,
      chainIds,
      from,
      take,
    }: {
      address: string
      chainIds: number[]
      from: Position | undefined
      take: number
    }) {
      let query = ctx.reads.db
        .selectFrom('nft_holdings as h')
        .leftJoin('tokens as t', (join) =>
          join.onRef('t.chain_id', '=', 'h.chain_id').onRef('t.address', '=', 'h.contract'),
        )
        .leftJoin('nft_metadata as m', (join) =>
          join
            .onRef('m.chain_id', '=', 'h.chain_id')
            .onRef('m.contract', '=', 'h.contract')
            .onRef('m.token_id', '=', 'h.token_id'),
        )
        .select([
          'h.chain_id',
          'h.contract',
          'h.token_id',
          'h.standard',
          'h.balance',
          'h.last_acquired_time',
          't.name as collection_name',
          't.symbol as collection_symbol',
          'm.uri',
          'm.name as meta_name',
          'm.description',
          'm.image_url',
          'm.attributes',
        ])
        .where('h.address', '=', address)
        .where('h.chain_id', 'in', chainIds)
        .orderBy('h.chain_id')
        .orderBy('h.contract')
        .orderBy('h.token_id')
        .limit(take)
      if (from) {
        const [chainId, contract, tokenId] = from
        query = query.where((eb) =>
          eb(
            eb.refTuple('h.chain_id', 'h.contract', 'h.token_id'),
            '>',
            eb.tuple(chainId, contract, tokenId),
          ),
        )
      }
      return query.execute()
    }
  }
}

/** The module with the shipped (empty) spam list. */
export const collectiblesRoutes: RouteModule = createCollectiblesRoutes()

type HoldingRow = {
  chain_id: number
  contract: string
  token_id: string
  standard: 'erc721' | 'erc1155'
  balance: string
  last_acquired_time: number
  collection_name: string | null
  collection_symbol: string | null
  uri: string | null
  description: string | null
  image_url: string | null
  attributes: string | null
}

type CollectibleItem = Static<typeof Collectible>
type Attributes = Static<typeof Attribute>[]

function toItem({
  row,
  chain,
  isSpam,
  spam,
  showScores,
}: {
  row: HoldingRow
  chain: string
  isSpam: boolean
  spam: { score: number; explanations: SpamExplanation[] }
  showScores: boolean
}): CollectibleItem {
  const item: CollectibleItem = {
    chain,
    chain_id: row.chain_id,
    contract_address: row.contract,
    token_id: fromU256(row.token_id).toString(),
    token_standard: row.standard === 'erc1155' ? 'ERC1155' : 'ERC721',
    balance: fromU256(row.balance).toString(),
    is_spam: isSpam,
    last_acquired: formatTime(row.last_acquired_time),
  }
  if (row.collection_name) item.name = row.collection_name
  if (row.collection_symbol) item.symbol = row.collection_symbol
  if (showScores) {
    item.spam_score = spam.score
    item.explanations = spam.explanations
  }
  if (row.description) item.description = row.description
  // A valid URI (the published schema's `format: uri`), whatever the metadata held.
  if (row.image_url) item.image_url = escapeUri(row.image_url)
  const metadata: { uri?: string; attributes?: Attributes } = {}
  if (row.uri) metadata.uri = row.uri
  const attributes = parseAttributes(row.attributes)
  if (attributes) metadata.attributes = attributes
  if (metadata.uri !== undefined || metadata.attributes !== undefined) item.metadata = metadata
  return item
}

function parseAttributes(stored: string | null): Attributes | undefined {
  if (!stored) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(stored)
  } catch {
    return undefined
  }
  // Written by the metadata worker from `shapeMetadata`: `NftAttribute`s.
  if (!Array.isArray(parsed)) return undefined
  return (parsed as NftAttribute[]).map((a) => ({
    key: a.trait_type ?? '',
    value: String(a.value),
    ...(a.display_type !== undefined ? { format: a.display_type } : {}),
  }))
}

function readPosition(value: unknown): Position | undefined {
  if (!Array.isArray(value) || value.length !== 3) return undefined
  const [chainId, contract, tokenId] = value
  if (!Number.isSafeInteger(chainId) || typeof contract !== 'string') return undefined
  if (typeof tokenId !== 'string' || !isStoredU256(tokenId)) return undefined
  return [chainId as number, contract, tokenId]
}
