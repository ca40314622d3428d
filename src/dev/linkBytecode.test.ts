import { expect, test } from 'vitest'
import { linkBytecode } from './linkBytecode.ts'

const LIB = `0x${'ab'.repeat(20)}` as const
const HOLE = '__$0123456789abcdef0123456789abcdef01$__'

test('default', () => {
  const bytecode = `0x6001${HOLE}6002${HOLE}` as const
  const linked = linkBytecode({
    bytecode,
    linkReferences: {
      'contracts/Lib.sol': {
        Lib: [
          { start: 2, length: 20 },
          { start: 24, length: 20 },
        ],
      },
    },
    libraries: { Lib: LIB },
  })
  expect(linked).toBe(`0x6001${LIB.slice(2)}6002${LIB.slice(2)}`)
})

test('behavior: a library not given is an error, not a call to address zero', () => {
  expect(() =>
    linkBytecode({
      bytecode: `0x${HOLE}`,
      linkReferences: { 'contracts/Lib.sol': { Lib: [{ start: 0, length: 20 }] } },
      libraries: {},
    }),
  ).toThrow(/Library Lib is not deployed/)
})
