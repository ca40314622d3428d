import { encodeAbiParameters, encodeEventTopics, type Hex, padHex, parseAbiParameters } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  APPROVAL_TOPIC,
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_TOPIC,
  wethAbi,
} from '../abis.ts'
import { type DecodableLog, decodeLog, decodeLogs } from './decodeLog.ts'

const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const alice = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const bob = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
const operator = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
const txHash = '0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447'
const position = { blockNumber: 2n, txHash, txIndex: 3, logIndex: 7 } as const

const uint = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])
const bool = (value: boolean) => encodeAbiParameters([{ type: 'bool' }], [value])
const batch = (ids: bigint[], values: bigint[]) =>
  encodeAbiParameters(parseAbiParameters('uint256[], uint256[]'), [ids, values])

// encodeEventTopics types topics loosely (null and arrays are for filters); ours are all words.
const log = (
  topics: readonly (Hex | Hex[] | null)[],
  data: Hex,
  address: Hex = token,
): DecodableLog => ({
  address,
  topics: topics as Hex[],
  data,
  blockNumber: 2n,
  transactionHash: txHash,
  transactionIndex: 3,
  logIndex: 7,
})

const erc20Transfer = (value = 5n) =>
  log(
    encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from: alice, to: bob } }),
    uint(value),
  )
const erc721Transfer = () =>
  log(
    encodeEventTopics({
      abi: erc721Abi,
      eventName: 'Transfer',
      args: { from: alice, to: bob, tokenId: 42n },
    }),
    '0x',
  )
const transferSingle = () =>
  log(
    encodeEventTopics({
      abi: erc1155Abi,
      eventName: 'TransferSingle',
      args: { operator, from: alice, to: bob },
    }),
    encodeAbiParameters(parseAbiParameters('uint256, uint256'), [9n, 100n]),
  )
const transferBatchTopics = () =>
  encodeEventTopics({
    abi: erc1155Abi,
    eventName: 'TransferBatch',
    args: { operator, from: alice, to: bob },
  })

describe('decodeLog', () => {
  test('default', () => {
    // A log as anvil returned it for `emit Transfer(address(this), eoa, 5)`.
    expect(
      decodeLog({
        address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        topics: [
          '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
          '0x0000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa3',
          '0x000000000000000000000000000000000000000000000000000000000000dead',
        ],
        data: '0x0000000000000000000000000000000000000000000000000000000000000005',
        blockNumber: 2n,
        transactionHash: '0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447',
        transactionIndex: 0,
        logIndex: 0,
      }),
    ).toEqual([
      {
        type: 'erc20_transfer',
        blockNumber: 2n,
        txHash: '0xe62ea17ae4cbf831f12b3f4817581fef6e9d0b4e19228a20867d96b1777ff447',
        txIndex: 0,
        logIndex: 0,
        subIndex: 0,
        token: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        from: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
        to: '0x000000000000000000000000000000000000dead',
        value: 5n,
      },
    ])
  })

  test('behavior: erc20 transfer of the largest uint256', () => {
    const max = 2n ** 256n - 1n
    expect(decodeLog(erc20Transfer(max))).toEqual([
      { ...position, subIndex: 0, type: 'erc20_transfer', token, from: alice, to: bob, value: max },
    ])
  })

  test('behavior: erc20 approval', () => {
    const topics = encodeEventTopics({
      abi: erc20Abi,
      eventName: 'Approval',
      args: { owner: alice, spender: bob },
    })
    expect(decodeLog(log(topics, uint(1000n)))).toEqual([
      {
        ...position,
        subIndex: 0,
        type: 'erc20_approval',
        token,
        owner: alice,
        spender: bob,
        value: 1000n,
      },
    ])
  })

  test('behavior: erc721 transfer', () => {
    expect(decodeLog(erc721Transfer())).toEqual([
      {
        ...position,
        subIndex: 0,
        type: 'erc721_transfer',
        token,
        from: alice,
        to: bob,
        tokenId: 42n,
      },
    ])
  })

  test('behavior: erc721 approval', () => {
    const topics = encodeEventTopics({
      abi: erc721Abi,
      eventName: 'Approval',
      args: { owner: alice, approved: bob, tokenId: 7n },
    })
    expect(decodeLog(log(topics, '0x'))).toEqual([
      {
        ...position,
        subIndex: 0,
        type: 'erc721_approval',
        token,
        owner: alice,
        approved: bob,
        tokenId: 7n,
      },
    ])
  })

  test('behavior: approval for all (erc721 and erc1155 share the event)', () => {
    const erc721Topics = encodeEventTopics({
      abi: erc721Abi,
      eventName: 'ApprovalForAll',
      args: { owner: alice, operator },
    })
    const erc1155Topics = encodeEventTopics({
      abi: erc1155Abi,
      eventName: 'ApprovalForAll',
      args: { account: alice, operator },
    })
    expect(erc1155Topics).toEqual(erc721Topics)
    const expected = {
      ...position,
      subIndex: 0,
      type: 'approval_for_all',
      token,
      owner: alice,
      operator,
    }
    expect(decodeLog(log(erc721Topics, bool(true)))).toEqual([{ ...expected, approved: true }])
    expect(decodeLog(log(erc1155Topics, bool(false)))).toEqual([{ ...expected, approved: false }])
  })

  test('behavior: erc1155 transfer single', () => {
    expect(decodeLog(transferSingle())).toEqual([
      {
        ...position,
        subIndex: 0,
        type: 'erc1155_transfer',
        token,
        operator,
        from: alice,
        to: bob,
        tokenId: 9n,
        value: 100n,
      },
    ])
  })

  test('behavior: erc1155 transfer batch becomes one transfer per id', () => {
    const events = decodeLog(log(transferBatchTopics(), batch([1n, 2n, 3n], [10n, 20n, 30n])))
    const common = { ...position, type: 'erc1155_transfer', token, operator, from: alice, to: bob }
    expect(events).toEqual([
      { ...common, subIndex: 0, tokenId: 1n, value: 10n },
      { ...common, subIndex: 1, tokenId: 2n, value: 20n },
      { ...common, subIndex: 2, tokenId: 3n, value: 30n },
    ])
  })

  test('behavior: empty erc1155 transfer batch', () => {
    expect(decodeLog(log(transferBatchTopics(), batch([], [])))).toEqual([])
  })

  test('behavior: weth deposit and withdrawal', () => {
    const deposit = encodeEventTopics({ abi: wethAbi, eventName: 'Deposit', args: { dst: alice } })
    const withdrawal = encodeEventTopics({
      abi: wethAbi,
      eventName: 'Withdrawal',
      args: { src: bob },
    })
    expect(decodeLog(log(deposit, uint(10n ** 18n)))).toEqual([
      { ...position, subIndex: 0, type: 'weth_deposit', token, to: alice, value: 10n ** 18n },
    ])
    expect(decodeLog(log(withdrawal, uint(3n)))).toEqual([
      { ...position, subIndex: 0, type: 'weth_withdrawal', token, from: bob, value: 3n },
    ])
  })

  test('behavior: addresses and hashes come out lowercase', () => {
    const upper = (hex: Hex) => `0x${hex.slice(2).toUpperCase()}` as Hex
    const input = erc20Transfer()
    const [event] = decodeLog({
      ...input,
      address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      topics: input.topics.map(upper),
      data: upper(input.data),
      transactionHash: upper(txHash),
    })
    expect(event).toMatchObject({ token, from: alice, to: bob, txHash, value: 5n })
  })

  test('behavior: logs that are not ours', () => {
    const uri = encodeEventTopics({ abi: erc1155Abi, eventName: 'URI', args: { id: 1n } })
    expect(decodeLog(log(uri, encodeAbiParameters([{ type: 'string' }], ['ipfs://x'])))).toEqual([])
    expect(decodeLog(log([padHex('0x1234')], uint(1n)))).toEqual([])
    // Anonymous events have no topic0.
    expect(decodeLog(log([], uint(1n)))).toEqual([])
  })

  test('behavior: decodeLogs keeps order and drops what does not decode', () => {
    const first = { ...erc20Transfer(1n), logIndex: 0 }
    const junk = { ...erc20Transfer(2n), logIndex: 1, data: '0x' as Hex }
    const second = { ...log(transferBatchTopics(), batch([4n, 5n], [1n, 1n])), logIndex: 2 }
    const events = decodeLogs([first, junk, second])
    expect(events.map((e) => [e.type, e.logIndex, e.subIndex])).toEqual([
      ['erc20_transfer', 0, 0],
      ['erc1155_transfer', 2, 0],
      ['erc1155_transfer', 2, 1],
    ])
    expect(decodeLogs([])).toEqual([])
  })

  describe('error: malformed logs decode to nothing', () => {
    const t20 = erc20Transfer()
    const t721 = erc721Transfer()
    const single = transferSingle()
    const [topic0, from, to] = t20.topics as [Hex, Hex, Hex]
    const dirtyAddress = `0x000000000000000000000001${alice.slice(2)}` as Hex
    const cases: [string, DecodableLog][] = [
      ['transfer with two topics', log([topic0, from], uint(1n))],
      ['transfer with five topics', log([...t721.topics, padHex('0x1')], '0x')],
      ['transfer with topic0 only', log([topic0], batch([1n], [1n]))],
      ['erc20 transfer without data', log(t20.topics, '0x')],
      ['erc20 transfer with short data', log(t20.topics, '0x05')],
      ['erc20 transfer with 31 bytes', log(t20.topics, `0x${'00'.repeat(31)}`)],
      ['erc20 transfer with long data', log(t20.topics, `${uint(1n)}00`)],
      ['erc20 transfer with two words', log(t20.topics, `${uint(1n)}${uint(2n).slice(2)}`)],
      ['erc721 transfer with data', log(t721.topics, uint(1n))],
      ['data with an odd number of digits', log(t20.topics, uint(1n).slice(0, -1) as Hex)],
      ['data that is not hex', log(t20.topics, `0x${'zz'.repeat(32)}`)],
      ['short topic', log([topic0, from, '0x1234'], uint(1n))],
      ['long topic', log([topic0, from, `${to}00`], uint(1n))],
      ['topic that is not hex', log([topic0, from, `0x${'g'.repeat(64)}`], uint(1n))],
      [
        'topic0 that is not 32 bytes',
        log([TRANSFER_TOPIC.slice(0, 10) as Hex, from, to], uint(1n)),
      ],
      ['address topic with high bytes set', log([topic0, dirtyAddress, to], uint(1n))],
      ['emitter that is not an address', log(t20.topics, uint(1n), '0x1234')],
      [
        'approval for all with a bool that is neither 0 nor 1',
        log(
          encodeEventTopics({
            abi: erc721Abi,
            eventName: 'ApprovalForAll',
            args: { owner: alice, operator },
          }),
          uint(2n),
        ),
      ],
      [
        'approval for all with four topics',
        log(
          [
            ...encodeEventTopics({
              abi: erc721Abi,
              eventName: 'ApprovalForAll',
              args: { owner: alice, operator },
            }),
            padHex('0x1'),
          ],
          bool(true),
        ),
      ],
      ['erc721 approval with data', log([APPROVAL_TOPIC, from, to, padHex('0x1')], uint(1n))],
      ['transfer single with one word', log(single.topics, uint(1n))],
      [
        'transfer single with three words',
        log(single.topics, `${single.data}${uint(1n).slice(2)}`),
      ],
      ['transfer single with three topics', log(single.topics.slice(0, 3), single.data)],
      [
        'transfer batch with more ids than values',
        log(transferBatchTopics(), batch([1n, 2n], [1n])),
      ],
      [
        'transfer batch with more values than ids',
        log(transferBatchTopics(), batch([1n], [1n, 2n])),
      ],
      ['transfer batch without data', log(transferBatchTopics(), '0x')],
      [
        'transfer batch cut short',
        log(transferBatchTopics(), batch([1n, 2n], [1n, 2n]).slice(0, -64) as Hex),
      ],
      [
        'transfer batch with trailing bytes',
        log(transferBatchTopics(), `${batch([1n], [1n])}${'00'.repeat(32)}`),
      ],
      [
        // Both offsets point at the same array: decodes, but is not what Solidity emits.
        'transfer batch with shared offsets',
        log(
          transferBatchTopics(),
          `0x${[0x40n, 0x40n, 1n, 7n].map((w) => uint(w).slice(2)).join('')}`,
        ),
      ],
      [
        'transfer batch claiming a huge array',
        log(
          transferBatchTopics(),
          `0x${[0x40n, 0x60n, 2n ** 32n, 0n].map((w) => uint(w).slice(2)).join('')}`,
        ),
      ],
      [
        'transfer batch with an offset past the end',
        log(
          transferBatchTopics(),
          `0x${[2n ** 255n, 0x60n, 0n, 0n].map((w) => uint(w).slice(2)).join('')}`,
        ),
      ],
      [
        'transfer batch with three topics',
        log(transferBatchTopics().slice(0, 3), batch([1n], [1n])),
      ],
      [
        'transfer batch topic with an erc20 body',
        log([TRANSFER_BATCH_TOPIC, from, to, from], uint(1n)),
      ],
      [
        'deposit with three topics',
        log(
          [...encodeEventTopics({ abi: wethAbi, eventName: 'Deposit', args: { dst: alice } }), to],
          uint(1n),
        ),
      ],
      [
        'deposit with its amount indexed',
        log(
          [...encodeEventTopics({ abi: wethAbi, eventName: 'Deposit', args: { dst: alice } })],
          '0x',
        ),
      ],
      [
        'withdrawal with short data',
        log(
          encodeEventTopics({ abi: wethAbi, eventName: 'Withdrawal', args: { src: bob } }),
          '0x01',
        ),
      ],
    ]
    for (const [name, input] of cases)
      test(name, () => {
        expect(decodeLog(input)).toEqual([])
      })

    test('garbage of the wrong types', () => {
      const garbage = [
        { ...t20, topics: [topic0, from, 42] },
        { ...t20, data: null },
        { ...t20, address: undefined },
        { ...t20, topics: 'nope' },
      ] as unknown as DecodableLog[]
      for (const input of garbage) expect(decodeLog(input)).toEqual([])
    })
  })
})
