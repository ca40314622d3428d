/** Plants an account with Surfpool's `surfnet_setAccount` cheatcode. */
export async function plantAccount({
  rpcUrl,
  address,
  owner,
  data,
  lamports = 1_000_000_000,
}: {
  rpcUrl: string
  address: string
  owner: string
  data: Buffer
  lamports?: number
}): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'surfnet_setAccount',
      params: [address, { lamports, owner, data: data.toString('hex'), executable: false }],
    }),
  })
  const answer = (await response.json()) as { error?: { message: string } }
  if (answer.error) throw new Error(`surfnet_setAccount ${address}: ${answer.error.message}`)
}
