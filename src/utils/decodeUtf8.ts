import { isAscii } from 'node:buffer'

const utf8 = new TextDecoder()

/**
 * Bytes as UTF-8 text, as `Response#text()` makes them (a byte-order mark dropped, invalid
 * sequences replaced). Text that is all ASCII, as a node's JSON-RPC answers are (hex and field
 * names), is copied as Latin-1, the same characters: Node 20's `TextDecoder` (what `text()`
 * uses) took ~10 ms per 2.7 MB answer, the check and the copy ~0.7; in a CPU profile of the
 * indexer at 20,000 transfers the decoding took more time than `JSON.parse` of the answers.
 */
export function decodeUtf8(bytes: ArrayBuffer): string {
  const buffer = Buffer.from(bytes)
  return isAscii(buffer) ? buffer.toString('latin1') : utf8.decode(buffer)
}
