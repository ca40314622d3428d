import { isIP } from 'node:net'

/**
 * True for an address a server-side fetch must not reach unless the operator allows it:
 * unspecified, loopback, private (RFC 1918), CGNAT (100.64/10), link-local, unique-local
 * (fc00::/7), multicast, reserved and benchmark ranges, and IPv6 forms that embed such an
 * IPv4 address (mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, compatible ::a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002::/16). Local-use NAT64 (64:ff9b:1::/48), the IETF protocol
 * block 2001::/23 (Teredo's 2001::/32 among it: a tunnel to an IPv4 address it hides) and the
 * 6to4 relay anycast 192.88.99.0/24 are refused whole. Anything that is not an IP address is
 * treated as private (refused).
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 4) return isPrivateV4(parseV4(bare))
  if (family === 6) {
    const groups = parseV6(bare)
    return groups === undefined || isPrivateV6(groups)
  }
  return true
}

function parseV4(text: string): number[] {
  return text.split('.').map(Number)
}

function isPrivateV4([a = 0, b = 0, c = 0]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // CGNAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 192 && b === 0 && c === 2) || // TEST-NET-1
    (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a >= 224 // multicast, reserved, broadcast
  )
}

/** Eight 16-bit groups, or undefined when the text is not a plain IPv6 address. */
function parseV6(text: string): number[] | undefined {
  let head = text.toLowerCase()
  const tail: number[] = []
  const dotted = head.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = parseV4(dotted[2] as string)
    tail.push((a << 8) | b, (c << 8) | d)
    head = dotted[1]?.endsWith('::') ? (dotted[1] as string) : (dotted[1] as string).slice(0, -1)
  }
  const halves = head.split('::')
  if (halves.length > 2) return undefined
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : [])
  const left = part(halves[0])
  const right = [...part(halves[1]), ...tail]
  const missing = 8 - left.length - right.length
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined
  const groups = [...left, ...Array<number>(Math.max(0, missing)).fill(0), ...right]
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) {
    return undefined
  }
  return groups
}

function isPrivateV6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const embedded = () => [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeroTo(8)) return true // ::
  if (zeroTo(7) && g7 === 1) return true // ::1
  if (zeroTo(5) && g5 === 0xffff) return isPrivateV4(embedded()) // mapped
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isPrivateV4(embedded()) // translated
  if (zeroTo(6)) return isPrivateV4(embedded()) // compatible (deprecated)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPrivateV4(embedded()) // NAT64
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true // local-use NAT64
  if (g0 === 0x2001 && g1 < 0x0200) return true // IETF protocol assignments, Teredo
  if (g0 === 0x2002) return isPrivateV4([g1 >> 8, g1 & 0xff, g2 >> 8, g2 & 0xff]) // 6to4
  if ((g0 & 0xffc0) === 0xfe80) return true // link-local
  if ((g0 & 0xffc0) === 0xfec0) return true // site-local (deprecated)
  if ((g0 & 0xfe00) === 0xfc00) return true // unique-local
  if ((g0 & 0xff00) === 0xff00) return true // multicast
  if (g0 === 0x2001 && g1 === 0x0db8) return true // documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return true // discard-only
  return false
}
