export type JsonRpcRequest = {
  jsonrpc: '2.0'
  id: number
  method: string
  params: readonly unknown[]
}

export type JsonRpcErrorObject = { code: number; message: string; data?: unknown }

/** A well-formed JSON-RPC answer; `id` is null when the node could not read the request's id. */
export type JsonRpcResponse =
  | { id: number | string | null; result: unknown }
  | { id: number | string | null; error: JsonRpcErrorObject }

/** One endpoint's way of carrying JSON-RPC payloads (HTTP or WebSocket). */
export type Transport = {
  /** Host and port only, for messages and logs. */
  host: string
  /**
   * Sends one request or a batch and resolves with the parsed JSON answer, unchecked. Rejects
   * with a typed RPC error, or with `signal.reason` once the signal aborts.
   */
  send(
    payload: JsonRpcRequest | readonly JsonRpcRequest[],
    options: { method: string; signal: AbortSignal },
  ): Promise<unknown>
  close(): void
}
