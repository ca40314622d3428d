import type { Address, Hex } from '../evm/types.ts'

/** Where a Hardhat artifact leaves room for library addresses: file → library → byte ranges. */
export type LinkReferences = Record<
  string,
  Record<string, readonly { start: number; length: number }[]>
>

/**
 * Pure: creation bytecode with every library placeholder replaced by the library's address
 * (`libraries` by library name). Throws naming the first library it was not given, so a
 * missing link is an error at deploy time, not a contract that calls address zero.
 */
export function linkBytecode({
  bytecode,
  linkReferences,
  libraries,
}: {
  bytecode: Hex
  linkReferences: LinkReferences
  libraries: Readonly<Record<string, Address>>
}): Hex {
  let body = bytecode.slice(2)
  for (const libs of Object.values(linkReferences)) {
    for (const [name, ranges] of Object.entries(libs)) {
      const address = libraries[name]
      if (!address) throw new Error(`Library ${name} is not deployed; link it first.`)
      const hex = address.slice(2).toLowerCase()
      for (const { start, length } of ranges) {
        if (length !== 20) throw new Error(`Library ${name}: a link of ${length} bytes.`)
        body = body.slice(0, start * 2) + hex + body.slice((start + length) * 2)
      }
    }
  }
  return `0x${body}`
}
