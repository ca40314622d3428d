import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PG_URL } from '../../../test/support/createTestStore.ts'
import { toByteaArray } from './toByteaArray.ts'

let client: pg.Client
beforeAll(async () => {
  client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
})
afterAll(() => client.end())

/** PostgreSQL's reading of the binary array, each element back as `\x…` hex text. */
async function read(values: readonly unknown[]): Promise<(string | null)[]> {
  const { rows } = await client.query<{ v: string | null }>(
    'select (unnest($1::bytea[]))::text as v',
    [toByteaArray(values)],
  )
  return rows.map((r) => r.v)
}

describe('toByteaArray (against PostgreSQL)', () => {
  it('default', async () => {
    const bytes = Uint8Array.from([0, 1, 0x5c, 0x22, 0x7b, 0xff])
    expect(await read([bytes, Buffer.from([7])])).toEqual(['\\x00015c227bff', '\\x07'])
  })

  it('behavior: views at an offset, empty bytes and nulls', async () => {
    const offset = new Uint8Array(Uint8Array.from([9, 9, 0xab, 0xcd, 9]).buffer, 2, 2)
    expect(await read([offset, new Uint8Array(0), null, undefined])).toEqual([
      '\\xabcd',
      '\\x',
      null,
      null,
    ])
  })

  it('behavior: no element', async () => {
    expect(await read([])).toEqual([])
  })

  it('behavior: a value that is not bytes leaves the column to a text literal', () => {
    expect(toByteaArray([Uint8Array.from([1]), '0x01'])).toBeUndefined()
  })
})
