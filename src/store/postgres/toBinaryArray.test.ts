import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PG_URL } from '../../../test/support/createTestStore.ts'
import { toArrayLiteral } from './toArrayLiteral.ts'
import { toBinaryArray } from './toBinaryArray.ts'

let client: pg.Client
beforeAll(async () => {
  client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
})
afterAll(() => client.end())

/** PostgreSQL's reading of an array parameter, each element back as text (bytea as `\x…`). */
async function read(array: unknown, type: string): Promise<(string | null)[]> {
  const { rows } = await client.query<{ v: string | null }>(
    `select (unnest($1::${type}[]))::text as v`,
    [array],
  )
  return rows.map((r) => r.v)
}

/** The binary array read as the text literal of the same values is. */
async function expectSameAsLiteral(values: readonly unknown[], type: string) {
  const binary = toBinaryArray(type, values)
  expect(binary).toBeInstanceOf(Buffer)
  expect(await read(binary, type)).toEqual(await read(toArrayLiteral(values), type))
}

describe('toBinaryArray (against PostgreSQL)', () => {
  it('default', async () => {
    const bytes = Uint8Array.from([0, 1, 0x5c, 0x22, 0x7b, 0xff])
    expect(await read(toBinaryArray('bytea', [bytes, Buffer.from([7])]), 'bytea')).toEqual([
      '\\x00015c227bff',
      '\\x07',
    ])
  })

  it('behavior: bytes of views at an offset, empty bytes and nulls', async () => {
    const offset = new Uint8Array(Uint8Array.from([9, 9, 0xab, 0xcd, 9]).buffer, 2, 2)
    await expectSameAsLiteral([offset, new Uint8Array(0), null, undefined], 'bytea')
  })

  it('behavior: text as the literal has it, quotes, backslashes and JSON included', async () => {
    await expectSameAsLiteral(
      ['plain', 'a"b', 'back\\slash', 'a,b', '{x}', 'NULL', '', ' padded ', 'ünï ✓ 😀', null],
      'text',
    )
    await expectSameAsLiteral([JSON.stringify({ a: 'x"y', b: '0x01' }), '00', '15de0b6b'], 'text')
  })

  it('behavior: integers at the bounds of each type, numbers and bigints', async () => {
    await expectSameAsLiteral(
      [
        0,
        1,
        -1,
        2 ** 32,
        -(2 ** 32) - 1,
        2 ** 53 - 1,
        -(2 ** 53),
        2n ** 63n - 1n,
        -(2n ** 63n),
        null,
      ],
      'int8',
    )
    await expectSameAsLiteral([0, -1, 2 ** 31 - 1, -(2 ** 31), 5n, null], 'int4')
    await expectSameAsLiteral([0, 1, -(2 ** 15), 2 ** 15 - 1, null], 'int2')
  })

  it('behavior: no element', async () => {
    expect(await read(toBinaryArray('int8', []), 'int8')).toEqual([])
  })

  it('behavior: a value that does not fit, or another type, leaves the column to a text literal', () => {
    expect(toBinaryArray('bytea', [Uint8Array.from([1]), '0x01'])).toBeUndefined()
    expect(toBinaryArray('text', ['a', 1])).toBeUndefined()
    expect(toBinaryArray('int8', [1, 1.5])).toBeUndefined()
    expect(toBinaryArray('int8', [2n ** 63n])).toBeUndefined()
    expect(toBinaryArray('int8', ['1'])).toBeUndefined()
    expect(toBinaryArray('int4', [2 ** 31])).toBeUndefined()
    expect(toBinaryArray('int2', [true])).toBeUndefined()
    expect(toBinaryArray('numeric', [1])).toBeUndefined()
  })
})
