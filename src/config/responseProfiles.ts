/**
 * Response profiles: which names an answer uses where `spec/interface.md` and the hosted
 * API's published schemas disagree (docs/migrating.md). `default` answers in interface.md's
 * names; `sim` in the published ones (collectibles `address`/`entries`, supported chains `id`,
 * token holders without `next_offset: null`). Chosen per API key, else the server's default.
 */
export const RESPONSE_PROFILES = ['default', 'sim'] as const

export type ResponseProfile = (typeof RESPONSE_PROFILES)[number]

export function isResponseProfile(value: unknown): value is ResponseProfile {
  return (RESPONSE_PROFILES as readonly unknown[]).includes(value)
}
