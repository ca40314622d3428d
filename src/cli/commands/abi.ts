import { readFile } from 'node:fs/promises'
import type { ScryConfig } from '../../config/types.ts'
import { parseAbiJson } from '../../evm/abi/parseAbiJson.ts'
import { BaseError } from '../../internal/errors.ts'
import { createStore } from '../../store/createStore.ts'

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/**
 * `scry abi add --name N --file path.json`: validates an ABI (a JSON array of fragments, or an
 * artifact with an `abi` array) and stores it under `name`, replacing an ABI of that name.
 * Running servers pick it up within a minute.
 */
export async function runAbiAdd({
  config,
  name,
  file,
  write = (text) => process.stdout.write(text),
}: {
  config: ScryConfig
  name: string
  file: string
  write?: (text: string) => void
}): Promise<number> {
  if (!NAME.test(name))
    throw new BaseError(
      `Invalid ABI name ${JSON.stringify(name.slice(0, 100))}: use 1-100 letters, digits, ".", "_" or "-".`,
    )
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new BaseError(`Cannot read the ABI file ${file}.`, {
      details: (error as NodeJS.ErrnoException).code ?? String(error),
    })
  }
  const abi = parseAbiJson(text)
  const functions = abi.filter((item) => item.type === 'function').length
  const events = abi.filter((item) => item.type === 'event').length

  const store = createStore({ url: config.database, mustExist: true })
  try {
    await store.ping()
    const existing = await store.db
      .selectFrom('abis')
      .select('name')
      .where('name', '=', name)
      .executeTakeFirst()
    const row = { name, abi: JSON.stringify(abi), created_at: Math.floor(Date.now() / 1000) }
    await store.db
      .insertInto('abis')
      .values(row)
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({ abi: row.abi, created_at: row.created_at }),
      )
      .execute()
    write(
      `${existing ? 'Replaced' : 'Added'} ABI ${name}: ${functions} function(s), ${events} event(s); running servers use it within a minute.\n`,
    )
    return 0
  } finally {
    await store.close()
  }
}
