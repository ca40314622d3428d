/** A seeded PRNG (sfc32): the same seed gives the same dataset on every machine. */
export type Random = {
  /** Uniform 32-bit unsigned integer. */
  u32(): number
  /** Uniform in [0, 1). */
  float(): number
  /** Uniform integer in [0, n). */
  int(n: number): number
  /** `words` × 8 lowercase hex digits. */
  hex(words: number): string
}

export function createRandom(seed: number): Random {
  let a = 0x9e3779b9
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = seed >>> 0
  const u32 = (): number => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  // Mix the seed in before the first draw.
  for (let i = 0; i < 16; i++) u32()
  const float = () => u32() / 4294967296
  return {
    u32,
    float,
    int: (n) => Math.floor(float() * n),
    hex(words) {
      let out = ''
      for (let i = 0; i < words; i++) out += u32().toString(16).padStart(8, '0')
      return out
    },
  }
}
