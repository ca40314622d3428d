import type { JsonRpcResponse } from './types.ts'

/** Checks the shape of one JSON-RPC answer; undefined when it is not one. */
export function readJsonRpcResponse(value: unknown): JsonRpcResponse | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const { id } = value as { id?: unknown }
  if (typeof id !== 'number' && typeof id !== 'string' && id !== null) return undefined
  if ('error' in value) {
    const { error } = value as { error: unknown }
    if (typeof error !== 'object' || error === null) return undefined
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown }
    if (typeof code !== 'number') return undefined
    return {
      id,
      error: {
        code,
        message: typeof message === 'string' ? message : '',
        ...(data === undefined ? {} : { data }),
      },
    }
  }
  if ('result' in value) return { id, result: (value as { result: unknown }).result }
  return undefined
}
