import { type Address, createPublicClient, erc20Abi, http, parseAbi } from 'viem'
import type { Store } from '../../src/store/createStore.ts'
import { bytesToHex } from '../../src/store/hexBytes.ts'
import { fromU256 } from '../../src/store/u256.ts'

const nftAbi = parseAbi([
  'function ownerOf(uint256 id) view returns (address)',
  'function balanceOf(address owner) view returns (uint256)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
])

/**
 * Ground truth: every balance, NFT holding and token supply in the store, and every holder
 * count, compared with what the node itself answers at `block` (viem, not Scry's client).
 * Returns the mismatches; an empty list means the store agrees with the node.
 */
export async function compareWithNode({
  store,
  rpcUrl,
  chainId,
  block,
  wallets = [],
}: {
  store: Store
  rpcUrl: string
  chainId: number
  block: bigint
  /** Addresses that must be present (and are checked for every token too). */
  wallets?: readonly string[]
}): Promise<{ mismatches: string[]; checked: Record<string, number> }> {
  const client = createPublicClient({ transport: http(rpcUrl, { batch: { batchSize: 200 } }) })
  const mismatches: string[] = []
  const db = store.db
  const checked = { native: 0, tokenBalances: 0, nfts: 0, supplies: 0, holderCounts: 0 }

  const natives = await db
    .selectFrom('native_balances')
    .selectAll()
    .where('chain_id', '=', chainId)
    .execute()
  const nativeByAddress = new Map(natives.map((n) => [n.address, fromU256(n.balance)]))
  const nativeAddresses = new Set([
    ...nativeByAddress.keys(),
    ...wallets.map((w) => w.toLowerCase()),
  ])
  await Promise.all(
    [...nativeAddresses].map(async (address) => {
      const actual = await client.getBalance({ address: address as Address, blockNumber: block })
      const ours = nativeByAddress.get(address)
      checked.native++
      if (ours === undefined ? actual !== 0n && wallets.includes(address) : ours !== actual) {
        mismatches.push(`native ${address}: store ${ours} node ${actual}`)
      }
    }),
  )

  const tokens = await db.selectFrom('tokens').selectAll().where('chain_id', '=', chainId).execute()
  const balances = await db
    .selectFrom('token_balances')
    .selectAll()
    .where('chain_id', '=', chainId)
    .execute()
  for (const token of tokens.filter((t) => t.standard === 'erc20')) {
    const rows = balances.filter((b) => b.token === token.address)
    const byHolder = new Map(rows.map((r) => [r.address, fromU256(r.balance)]))
    const holders = new Set([...byHolder.keys(), ...wallets.map((w) => w.toLowerCase())])
    let nodeHolders = 0
    await Promise.all(
      [...holders].map(async (holder) => {
        const actual = await client
          .readContract({
            address: token.address as Address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [holder as Address],
            blockNumber: block,
          })
          .catch(() => 0n)
        if (actual > 0n) nodeHolders++
        const ours = byHolder.get(holder) ?? 0n
        checked.tokenBalances++
        if (ours !== actual)
          mismatches.push(
            `token ${token.symbol ?? token.address} holder ${holder}: store ${ours} node ${actual}`,
          )
      }),
    )
    const ourHolders = rows.filter((r) => fromU256(r.balance) > 0n).length
    checked.holderCounts++
    if (ourHolders !== nodeHolders)
      mismatches.push(
        `token ${token.symbol ?? token.address} holders: store ${ourHolders} node ${nodeHolders}`,
      )
    const supply = await client
      .readContract({
        address: token.address as Address,
        abi: erc20Abi,
        functionName: 'totalSupply',
        blockNumber: block,
      })
      .catch(() => undefined)
    checked.supplies++
    const ourSupply = token.total_supply === null ? undefined : fromU256(token.total_supply)
    if (ourSupply !== supply)
      mismatches.push(
        `token ${token.symbol ?? token.address} totalSupply: store ${ourSupply} node ${supply}`,
      )
  }

  const nfts = await db
    .selectFrom('nft_holdings')
    .selectAll()
    .where('chain_id', '=', chainId)
    .execute()
  await Promise.all(
    nfts.map(async (n) => {
      const id = fromU256(n.token_id)
      checked.nfts++
      if (n.standard === 'erc721') {
        const owner = await client
          .readContract({
            address: n.contract as Address,
            abi: nftAbi,
            functionName: 'ownerOf',
            args: [id],
            blockNumber: block,
          })
          .catch(() => undefined)
        if (owner?.toLowerCase() !== n.address)
          mismatches.push(`erc721 ${n.contract}#${id}: store ${n.address} node ${owner}`)
      } else {
        const actual = await client.readContract({
          address: n.contract as Address,
          abi: nftAbi,
          functionName: 'balanceOf',
          args: [n.address as Address, id],
          blockNumber: block,
        })
        if (actual !== fromU256(n.balance))
          mismatches.push(
            `erc1155 ${n.contract}#${id} ${n.address}: store ${fromU256(n.balance)} node ${actual}`,
          )
      }
    }),
  )

  // Completeness: every wallet's NFT count per ERC721 collection, and its balance of every
  // ERC1155 id that ever moved, equal the node's (not only the rows we have).
  const transfers = await db
    .selectFrom('transfers')
    .select(['token', 'token_id', 'kind'])
    .where('chain_id', '=', chainId)
    .where('kind', 'in', ['erc721', 'erc1155'])
    .execute()
  const ids1155 = new Map<string, Set<string>>()
  const contracts721 = new Set<string>()
  for (const t of transfers) {
    // An NFT transfer always names its contract.
    const token = bytesToHex(t.token!)
    if (t.kind === 'erc721') contracts721.add(token)
    else {
      const set = ids1155.get(token) ?? new Set<string>()
      set.add(t.token_id as string)
      ids1155.set(token, set)
    }
  }
  const held = (address: string, contract: string, tokenId?: string) =>
    nfts.filter(
      (n) =>
        n.address === address &&
        n.contract === contract &&
        (tokenId === undefined || n.token_id === tokenId),
    )
  await Promise.all(
    wallets.map(async (wallet) => {
      const address = wallet.toLowerCase()
      for (const contract of contracts721) {
        const count = await client.readContract({
          address: contract as Address,
          abi: nftAbi,
          functionName: 'balanceOf',
          args: [address as Address],
          blockNumber: block,
        })
        checked.nfts++
        const ours = held(address, contract).length
        if (BigInt(ours) !== count)
          mismatches.push(`erc721 ${contract} count of ${address}: store ${ours} node ${count}`)
      }
      for (const [contract, ids] of ids1155) {
        for (const id of ids) {
          const actual = await client.readContract({
            address: contract as Address,
            abi: nftAbi,
            functionName: 'balanceOf',
            args: [address as Address, fromU256(id)],
            blockNumber: block,
          })
          checked.nfts++
          const row = held(address, contract, id)[0]
          const ours = row ? fromU256(row.balance) : 0n
          if (ours !== actual)
            mismatches.push(
              `erc1155 ${contract}#${fromU256(id)} of ${address}: store ${ours} node ${actual}`,
            )
        }
      }
    }),
  )
  return { mismatches, checked }
}
