import type { BatchWrite } from '../../src/store/applyBatch.ts'
import type { ActivityRecord, ActivityType, TransactionRecord } from '../../src/store/schema.ts'
import type { StateChange } from '../../src/store/stateTables.ts'
import { toU256, U256_ZERO } from '../../src/store/u256.ts'
import type { DatasetPlan } from './createDatasetPlan.ts'
import { createRandom } from './createRandom.ts'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const TRANSFER_SELECTOR = '0xa9059cbb'
/** airdrop(address[],uint256[]) */
const AIRDROP_SELECTOR = '0x67243482'
const GENESIS_TIME = 1_700_000_000
const BLOCK_SECONDS = 12
/** Share of wallet-to-wallet transactions that move ETH rather than a token. */
const NATIVE_SHARE = 0.1
/** Chance that a sender or receiver is drawn from the busy wallets. */
const BUSY_SHARE = 0.5
/** Chance that a sender empties its balance of a token (never for the big token). */
const EMPTY_SHARE = 0.05
const STATE_CHUNK = 20_000

export type DatasetOptions = {
  plan: DatasetPlan
  chainId: number
  /** Wallet-to-wallet transfers after the airdrop (ERC20 and native). */
  transfers: number
  txsPerBlock: number
  /** Blocks per committed batch: the indexer's `batchSize`. */
  batchSize: number
  /** Recipients per airdrop transaction. */
  airdropPerTx?: number
  airdropTxsPerBlock?: number
}

type Tx = TransactionRecord

/** One ABI word: 64 hex digits. */
const word = (value: bigint) => value.toString(16).padStart(64, '0')
type Activity = ActivityRecord

/**
 * The rows the indexer would write for a generated chain, as `BatchWrite`s of `batchSize`
 * blocks (keepUndo false), followed by state-only batches with the final balances and tokens.
 *
 * The chain: an empty genesis, then an airdrop (one mint per holder of every token, in
 * multi-recipient transactions from a distributor), then `transfers` wallet-to-wallet
 * transfers: 90 % ERC20 `transfer` calls (each moves 0.01–50 % of the sender's balance; a
 * sender with nothing left makes a reverted transaction), 10 % plain ETH sends. Token balances
 * are the event sums, as `balanceOf` would say; ETH balances are drawn at random (gas is not
 * modelled), as `getBalance` would say.
 */
export function* generateDataset({
  plan,
  chainId,
  transfers,
  txsPerBlock,
  batchSize,
  airdropPerTx = 50,
  airdropTxsPerBlock = 20,
}: DatasetOptions): Generator<BatchWrite> {
  const random = createRandom(plan.seed)
  const walletCount = plan.wallets.length
  const tokenCount = plan.tokens.length

  const balance: bigint[] = new Array(plan.totalSlots).fill(0n)
  const firstBlock = new Int32Array(plan.totalSlots)
  const lastBlock = new Int32Array(plan.totalSlots)
  const sent = new Uint8Array(plan.totalSlots)
  const nativeLast = new Int32Array(walletCount).fill(-1)
  const nonce = new Int32Array(walletCount)
  const tokenFirst = new Int32Array(tokenCount).fill(-1)
  const tokenLast = new Int32Array(tokenCount)
  const tokenTouched = new Int32Array(tokenCount).fill(-1)
  const minerLast = new Int32Array(plan.miners.length).fill(-1)
  const supply: bigint[] = new Array(tokenCount).fill(0n)
  let distributorNonce = 0
  let distributorLast = -1

  // Tokens are picked in proportion to their holder counts.
  const cumulative: number[] = []
  let weight = 0
  for (let t = 0; t < tokenCount; t++) {
    weight += plan.holderCount(t)
    cumulative.push(weight)
  }
  const pickToken = (): number => {
    const x = random.float() * weight
    let lo = 0
    let hi = tokenCount - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((cumulative[mid] as number) > x) hi = mid
      else lo = mid + 1
    }
    return lo
  }
  const pickHolder = (t: number): number =>
    plan.busy > 0 && random.float() < BUSY_SHARE
      ? random.int(plan.busy)
      : random.int(plan.holderCount(t))
  const pickWallet = (): number =>
    plan.busy > 0 && random.float() < BUSY_SHARE ? random.int(plan.busy) : random.int(walletCount)
  /** Log-uniform amounts, distinct-ish: 9 random digits times 10^9..10^15. */
  const randomAmount = (): bigint =>
    BigInt(1 + random.int(999_999_999)) * 10n ** BigInt(9 + random.int(7))
  const nextNonce = (w: number): number => {
    const n = nonce[w] as number
    nonce[w] = n + 1
    return n
  }
  const wallet = (i: number) => plan.wallets[i] as `0x${string}`
  const token = (t: number) => plan.tokens[t] as `0x${string}`
  const hash = () => `0x${random.hex(8)}`
  const gasPrice = () => toU256(BigInt(1_000_000_000 + random.int(49_000_000_000)))

  const newBatch = (fromBlock: number): BatchWrite => ({
    chainId,
    fromBlock,
    toBlock: fromBlock,
    toHash: '',
    keepUndo: false,
    blocks: [],
    transactions: [],
    logs: [],
    addressTransactions: [],
    transfers: [],
    activity: [],
    state: [],
  })
  let batch = newBatch(0)
  let number = -1
  let parentHash = `0x${'0'.repeat(64)}`
  let time = 0
  let blockHash = ''
  let txIndex = 0
  let transferSeq = 0
  let activitySeq = 0
  let logIndex = 0

  const openBlock = () => {
    number++
    time = GENESIS_TIME + number * BLOCK_SECONDS
    blockHash = hash()
    const miner = random.int(plan.miners.length)
    minerLast[miner] = number
    batch.blocks.push({
      chain_id: chainId,
      number,
      hash: blockHash,
      parent_hash: parentHash,
      timestamp: time,
      miner: plan.miners[miner] as string,
    })
    parentHash = blockHash
    txIndex = 0
    transferSeq = 0
    activitySeq = 0
    logIndex = 0
  }
  /** Closes the block; returns the batch when the block ends one. */
  const closeBlock = (): BatchWrite | undefined => {
    batch.toBlock = number
    batch.toHash = blockHash
    if ((number + 1) % batchSize !== 0) return undefined
    const done = batch
    batch = newBatch(number + 1)
    return done
  }

  const pushTx = (
    tx: Omit<Tx, 'chain_id' | 'block_number' | 'tx_index' | 'block_hash' | 'block_time'>,
  ) => {
    const row: Tx = {
      chain_id: chainId,
      block_number: number,
      tx_index: txIndex,
      block_hash: blockHash,
      block_time: time,
      ...tx,
    }
    batch.transactions.push(row)
    return row
  }
  const pushLog = ({
    address,
    from,
    to,
    value,
  }: {
    address: string
    from: string
    to: string
    value: bigint
  }) => {
    batch.logs.push({
      chain_id: chainId,
      block_number: number,
      log_index: logIndex++,
      tx_index: txIndex,
      address,
      topics: [TRANSFER_TOPIC, topicOf(from), topicOf(to)],
      data: `0x${word(value)}`,
    })
  }
  const pushTransfer = (m: {
    kind: 'native' | 'erc20'
    token: string | null
    from: string
    to: string
    value: bigint
    tx: Tx
  }): number => {
    const seq = transferSeq++
    batch.transfers.push({
      chain_id: chainId,
      block_number: number,
      seq,
      tx_index: txIndex,
      tx_hash: m.tx.hash,
      block_time: time,
      kind: m.kind,
      token: m.token,
      from_address: m.from,
      to_address: m.to,
      token_id: null,
      value: toU256(m.value),
    })
    return seq
  }
  const pushActivity = (tx: Tx, address: string, type: ActivityType, fields: Partial<Activity>) => {
    batch.activity.push({
      chain_id: chainId,
      block_number: number,
      block_time: time,
      tx_hash: tx.hash,
      tx_index: txIndex,
      tx_from: tx.from_address,
      tx_to: tx.to_address ?? null,
      tx_value: tx.value,
      address,
      seq: activitySeq++,
      type,
      asset_type: null,
      token_address: null,
      from_address: null,
      to_address: null,
      value: null,
      token_id: null,
      spender: null,
      function_selector: null,
      to_token_address: null,
      to_value: null,
      value_usd: null,
      transfer_seq: null,
      ...fields,
    })
  }
  /** send + receive, or mint for a transfer from the zero address. */
  const pushMovementItems = (
    tx: Tx,
    m: { asset: 'native' | 'erc20'; token: string | null; from: string; to: string; value: bigint },
    transferSeq: number,
  ) => {
    const fields = {
      asset_type: m.asset,
      token_address: m.token,
      from_address: m.from,
      to_address: m.to,
      value: toU256(m.value),
      token_id: null,
      transfer_seq: transferSeq,
    }
    if (m.token !== null && m.from === ZERO_ADDRESS) pushActivity(tx, m.to, 'mint', fields)
    else {
      pushActivity(tx, m.from, 'send', fields)
      pushActivity(tx, m.to, 'receive', fields)
    }
  }
  const pushCallItem = (tx: Tx) => {
    pushActivity(tx, tx.from_address, 'call', {
      to_address: tx.to_address ?? null,
      value: tx.value,
      function_selector: tx.input.slice(0, 10),
    })
  }
  const pushInvolved = (addresses: readonly string[]) => {
    for (const address of new Set(addresses)) {
      if (address === ZERO_ADDRESS) continue
      batch.addressTransactions.push({
        address,
        chain_id: chainId,
        block_number: number,
        tx_index: txIndex,
        block_time: time,
      })
    }
  }

  const airdropTx = (t: number, fromK: number, toK: number) => {
    const recipients: number[] = []
    const amounts: bigint[] = []
    for (let k = fromK; k < toK; k++) {
      recipients.push(plan.holderWallet(t, k))
      amounts.push(randomAmount())
    }
    const n = recipients.length
    const input =
      AIRDROP_SELECTOR +
      word(64n) +
      word(BigInt(64 + 32 + 32 * n)) +
      word(BigInt(n)) +
      recipients.map((w) => topicOf(wallet(w)).slice(2)).join('') +
      word(BigInt(n)) +
      amounts.map(word).join('')
    const tx = pushTx({
      hash: hash(),
      from_address: plan.distributor,
      to_address: token(t),
      contract_address: null,
      value: U256_ZERO,
      nonce: distributorNonce++,
      gas_price: gasPrice(),
      gas_used: toU256(BigInt(30_000 + 28_000 * n)),
      tx_type: 2,
      input,
      success: 1,
    })
    distributorLast = number
    if (tokenFirst[t] === -1) tokenFirst[t] = number
    tokenLast[t] = number
    tokenTouched[t] = number
    for (let i = 0; i < n; i++) {
      const k = fromK + i
      const to = wallet(recipients[i] as number)
      const value = amounts[i] as bigint
      const slot = plan.slot(t, k)
      balance[slot] = (balance[slot] as bigint) + value
      supply[t] = (supply[t] as bigint) + value
      if (firstBlock[slot] === 0) firstBlock[slot] = number
      lastBlock[slot] = number
      pushLog({ address: token(t), from: ZERO_ADDRESS, to, value })
      const seq = pushTransfer({
        kind: 'erc20',
        token: token(t),
        from: ZERO_ADDRESS,
        to,
        value,
        tx,
      })
      pushMovementItems(tx, { asset: 'erc20', token: token(t), from: ZERO_ADDRESS, to, value }, seq)
    }
    pushCallItem(tx)
    pushInvolved([plan.distributor, token(t), ...recipients.map(wallet)])
    txIndex++
  }

  /** Returns 1 when the transfer happened, 0 when the transaction reverted. */
  const erc20Tx = (): number => {
    const t = pickToken()
    const fromK = pickHolder(t)
    let toK = pickHolder(t)
    while (toK === fromK) toK = pickHolder(t)
    const fromW = plan.holderWallet(t, fromK)
    const from = wallet(fromW)
    const to = wallet(plan.holderWallet(t, toK))
    const fromSlot = plan.slot(t, fromK)
    const toSlot = plan.slot(t, toK)
    const held = balance[fromSlot] as bigint
    let value = (held * BigInt(1 + random.int(5_000))) / 10_000n
    if (value === 0n || (t !== 0 && random.float() < EMPTY_SHARE)) value = held
    const success = held > 0n
    // A sender with nothing left still sends some amount; the call reverts.
    if (!success) value = randomAmount()
    const tx = pushTx({
      hash: hash(),
      from_address: from,
      to_address: token(t),
      contract_address: null,
      value: U256_ZERO,
      nonce: nextNonce(fromW),
      gas_price: gasPrice(),
      gas_used: toU256(BigInt(success ? 34_000 + random.int(18_000) : 22_000 + random.int(4_000))),
      tx_type: 2,
      input: TRANSFER_SELECTOR + topicOf(to).slice(2) + word(value),
      success: success ? 1 : 0,
    })
    nativeLast[fromW] = number
    tokenTouched[t] = number
    if (success) {
      balance[fromSlot] = held - value
      balance[toSlot] = (balance[toSlot] as bigint) + value
      sent[fromSlot] = 1
      lastBlock[fromSlot] = number
      lastBlock[toSlot] = number
      pushLog({ address: token(t), from, to, value })
      const seq = pushTransfer({ kind: 'erc20', token: token(t), from, to, value, tx })
      pushMovementItems(tx, { asset: 'erc20', token: token(t), from, to, value }, seq)
      pushInvolved([from, token(t), to])
    } else {
      pushCallItem(tx)
      pushInvolved([from, token(t)])
    }
    txIndex++
    return success ? 1 : 0
  }

  const nativeTx = () => {
    const fromW = pickWallet()
    let toW = pickWallet()
    while (toW === fromW) toW = pickWallet()
    const from = wallet(fromW)
    const to = wallet(toW)
    const value = BigInt(1 + random.int(999_999)) * 10n ** BigInt(10 + random.int(4))
    const tx = pushTx({
      hash: hash(),
      from_address: from,
      to_address: to,
      contract_address: null,
      value: toU256(value),
      nonce: nextNonce(fromW),
      gas_price: gasPrice(),
      gas_used: toU256(21_000n),
      tx_type: 2,
      input: '0x',
      success: 1,
    })
    nativeLast[fromW] = number
    nativeLast[toW] = number
    const seq = pushTransfer({ kind: 'native', token: null, from, to, value, tx })
    pushMovementItems(tx, { asset: 'native', token: null, from, to, value }, seq)
    pushInvolved([from, to])
    txIndex++
  }

  // Genesis.
  openBlock()
  const genesis = closeBlock()
  if (genesis) yield genesis

  openBlock()
  for (let t = 0; t < tokenCount; t++) {
    for (let k = 0; k < plan.holderCount(t); k += airdropPerTx) {
      if (txIndex === airdropTxsPerBlock) {
        const done = closeBlock()
        if (done) yield done
        openBlock()
      }
      airdropTx(t, k, Math.min(plan.holderCount(t), k + airdropPerTx))
    }
  }
  let made = 0
  while (made < transfers) {
    if (txIndex === txsPerBlock) {
      const done = closeBlock()
      if (done) yield done
      openBlock()
    }
    if (random.float() < NATIVE_SHARE) {
      nativeTx()
      made++
    } else made += erc20Tx()
  }
  const last = closeBlock() ?? batch
  const finalBlock = number
  const finalHash = blockHash
  yield last

  // State, as the last batch touching each key left it.
  const batchTo = (block: number) =>
    Math.min(Math.floor(block / batchSize) * batchSize + batchSize - 1, finalBlock)
  const batchFrom = (block: number) => Math.floor(block / batchSize) * batchSize
  const timeOf = (block: number) => GENESIS_TIME + block * BLOCK_SECONDS
  let state: StateChange[] = []
  const stateBatch = (): BatchWrite => {
    const done = { ...newBatch(finalBlock), toHash: finalHash, state }
    state = []
    return done
  }
  const native = (address: string, value: bigint, block: number) => {
    state.push({
      table: 'native_balances',
      key: { address, chain_id: chainId },
      row: { address, chain_id: chainId, balance: toU256(value), block_number: batchTo(block) },
    })
  }

  for (let w = 0; w < walletCount; w++) {
    const last = nativeLast[w] as number
    if (last >= 0) native(wallet(w), randomAmount() * 1000n, last)
    if (state.length >= STATE_CHUNK) yield stateBatch()
  }
  for (let m = 0; m < plan.miners.length; m++) {
    const last = minerLast[m] as number
    if (last >= 0) native(plan.miners[m] as string, randomAmount() * 1_000_000n, last)
  }
  native(plan.distributor, randomAmount() * 1000n, distributorLast)
  for (let t = 0; t < tokenCount; t++) {
    // Token contracts are transaction targets: the indexer reads their ETH balance too.
    if ((tokenTouched[t] as number) >= 0) native(token(t), 0n, tokenTouched[t] as number)
    state.push({
      table: 'tokens',
      key: { chain_id: chainId, address: token(t) },
      row: {
        chain_id: chainId,
        address: token(t),
        standard: 'erc20',
        name: `Bench Token ${t}`,
        symbol: `BT${t}`,
        decimals: t % 10 === 3 ? 6 : 18,
        total_supply: toU256(supply[t] as bigint),
        rebasing: 0,
        first_block: batchFrom(tokenFirst[t] as number),
        block_number: batchTo(tokenLast[t] as number),
      },
    })
  }
  yield stateBatch()

  for (let t = 0; t < tokenCount; t++) {
    for (let k = 0; k < plan.holderCount(t); k++) {
      const slot = plan.slot(t, k)
      const address = wallet(plan.holderWallet(t, k))
      const first = firstBlock[slot] as number
      state.push({
        table: 'token_balances',
        key: { address, chain_id: chainId, token: token(t) },
        row: {
          address,
          chain_id: chainId,
          token: token(t),
          balance: toU256(balance[slot] as bigint),
          first_acquired_time: timeOf(first),
          first_acquired_block: first,
          has_initiated_transfer: sent[slot] as number,
          block_number: batchTo(lastBlock[slot] as number),
        },
      })
      if (state.length >= STATE_CHUNK) yield stateBatch()
    }
  }
  if (state.length > 0) yield stateBatch()
}

/** An address as a 32-byte topic / ABI word. */
function topicOf(address: string): string {
  return `0x000000000000000000000000${address.slice(2)}`
}
