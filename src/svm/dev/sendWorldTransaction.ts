import {
  type Connection,
  type Keypair,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js'

/** Sends, then waits until the node reports the transaction confirmed; returns its signature. */
export async function send(
  connection: Connection,
  feePayer: Keypair,
  instructions: TransactionInstruction[],
  signers: Keypair[] = [],
  { expectFailure = false }: { expectFailure?: boolean } = {},
): Promise<string> {
  const tx = new Transaction().add(...instructions)
  tx.feePayer = feePayer.publicKey
  tx.recentBlockhash = (await connection.getLatestBlockhash('confirmed')).blockhash
  tx.sign(feePayer, ...signers)
  const signature = await connection.sendRawTransaction(tx.serialize(), {
    skipPreflight: expectFailure,
  })
  for (let i = 0; i < 1500; i++) {
    const { value } = await connection.getSignatureStatuses([signature])
    const status = value[0]
    if (status && status.confirmationStatus !== 'processed') {
      if (status.err && !expectFailure) throw new Error(`transaction ${signature} failed`)
      if (!status.err && expectFailure) throw new Error(`transaction ${signature} did not fail`)
      return signature
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`transaction ${signature} was not confirmed`)
}
