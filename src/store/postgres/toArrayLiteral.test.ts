import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PG_URL } from '../../../test/support/createTestStore.ts'
import { toArrayLiteral } from './toArrayLiteral.ts'

let client: pg.Client
beforeAll(async () => {
  client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
})
afterAll(() => client.end())

/** PostgreSQL's reading of the literal, each element back as text (bytea as `\x…` hex). */
async function read(values: readonly unknown[], type: string): Promise<(string | null)[]> {
  const { rows } = await client.query<{ v: string | null }>(
    `select (unnest($1::${type}[]))::text as v`,
    [toArrayLiteral(values)],
  )
  return rows.map((r) => r.v)
}

describe('toArrayLiteral (against PostgreSQL)', () => {
  it('text: quotes, backslashes, separators, braces, NULL spelled out, empty, unicode', async () => {
    const values = [
      'plain',
      'a"b',
      'back\\slash',
      'a,b',
      '{x}',
      'NULL',
      '',
      ' padded ',
      'ünï ✓',
      null,
    ]
    expect(await read(values, 'text')).toEqual(values)
  })

  it('bytea: bytes of any view, empty, null', async () => {
    const bytes = Uint8Array.from([0, 1, 0x5c, 0x22, 0xff])
    const offset = new Uint8Array(Buffer.from([9, 9, 0xab, 0xcd]).buffer, 2, 2)
    expect(await read([bytes, new Uint8Array(0), Buffer.from([7]), null], 'bytea')).toEqual([
      '\\x00015c22ff',
      '\\x',
      '\\x07',
      null,
    ])
    const [value] = await read([offset], 'bytea')
    expect(value).toBe(`\\x${Buffer.from(offset).toString('hex')}`)
  })

  it('numbers: integers past 2^53 as bigints, floats with exponents, NaN', async () => {
    expect(await read([1, -2, 2n ** 62n, null], 'int8')).toEqual([
      '1',
      '-2',
      (2n ** 62n).toString(),
      null,
    ])
    expect(await read([1.5, 1e-7, 3e21, Number.NaN], 'float8')).toEqual([
      '1.5',
      '1e-07',
      '3e+21',
      'NaN',
    ])
  })

  it('booleans and objects (as JSON)', async () => {
    expect(await read([true, false, null], 'bool')).toEqual(['true', 'false', null])
    expect(await read([{ a: 'x"y', b: [1] }], 'jsonb')).toEqual(['{"a": "x\\"y", "b": [1]}'])
  })
})
