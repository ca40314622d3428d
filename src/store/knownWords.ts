import { toEventSelector } from 'viem'

/**
 * Event signatures whose topic (keccak256 of the signature) the packed layouts of migration
 * 0023 (`createPackWriter`'s words) store as one byte: a word equal to entry `i` is written as
 * the byte `KNOWN_WORD_BASE + i`. Stored rows depend on this list: append only, never reorder
 * or remove an entry (a typo costs a slot, not correctness: a word is matched byte for byte).
 * What mainnet logs mostly are: token standards, WETH, Uniswap V2/V3/V4, ERC-4626, Aave,
 * OpenZeppelin's access and proxy events.
 */
const KNOWN_EVENTS = [
  'Transfer(address,address,uint256)',
  'Approval(address,address,uint256)',
  'ApprovalForAll(address,address,bool)',
  'TransferSingle(address,address,address,uint256,uint256)',
  'TransferBatch(address,address,address,uint256[],uint256[])',
  'URI(string,uint256)',
  'Deposit(address,uint256)',
  'Withdrawal(address,uint256)',
  'Sync(uint112,uint112)',
  'Swap(address,uint256,uint256,uint256,uint256,address)',
  'Mint(address,uint256,uint256)',
  'Burn(address,uint256,uint256,address)',
  'PairCreated(address,address,address,uint256)',
  'Swap(address,address,int256,int256,uint160,uint128,int24)',
  'Mint(address,address,int24,int24,uint128,uint256,uint256)',
  'Burn(address,int24,int24,uint128,uint256,uint256)',
  'Collect(address,address,int24,int24,uint128,uint128)',
  'Initialize(uint160,int24)',
  'PoolCreated(address,address,uint24,int24,address)',
  'Flash(address,address,uint256,uint256,uint256,uint256)',
  'IncreaseLiquidity(uint256,uint128,uint256,uint256)',
  'DecreaseLiquidity(uint256,uint128,uint256,uint256)',
  'Collect(uint256,address,uint256,uint256)',
  'Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)',
  'ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)',
  'Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)',
  'Deposit(address,address,uint256,uint256)',
  'Withdraw(address,address,address,uint256,uint256)',
  'Supply(address,address,address,uint256,uint16)',
  'Withdraw(address,address,address,uint256)',
  'Borrow(address,address,address,uint256,uint8,uint256,uint16)',
  'Repay(address,address,address,uint256,bool)',
  'ReserveDataUpdated(address,uint256,uint256,uint256,uint256,uint256)',
  'OwnershipTransferred(address,address)',
  'Upgraded(address)',
  'AdminChanged(address,address)',
  'BeaconUpgraded(address)',
  'Initialized(uint8)',
  'Initialized(uint64)',
  'Paused(address)',
  'Unpaused(address)',
  'RoleGranted(bytes32,address,address)',
  'RoleRevoked(bytes32,address,address)',
  'DelegateChanged(address,address,address)',
  'DelegateVotesChanged(address,uint256,uint256)',
  'MetadataUpdate(uint256)',
  'BatchMetadataUpdate(uint256,uint256)',
  'ConsecutiveTransfer(uint256,uint256,address,address)',
] as const

/** The first header byte that names a known word (0–64 are zero and 0xff runs). */
export const KNOWN_WORD_BASE = 65

/** The known words, in their stored order. */
export const KNOWN_WORDS: readonly Buffer[] = KNOWN_EVENTS.map((signature) =>
  Buffer.from(toEventSelector(signature).slice(2), 'hex'),
)

/** Known words by their first four bytes (a quick filter before the full comparison). */
export const KNOWN_BY_PREFIX: ReadonlyMap<number, number> = (() => {
  const map = new Map<number, number>()
  KNOWN_WORDS.forEach((word, i) => {
    const prefix = word.readUInt32BE(0)
    if (map.has(prefix)) throw new Error(`knownWords: two known words start ${prefix}`)
    map.set(prefix, i)
  })
  if (KNOWN_WORD_BASE + KNOWN_WORDS.length > 256) throw new Error('knownWords: too many words')
  return map
})()
