import { createHash } from 'node:crypto'
import {
  ACCOUNT_SIZE,
  createInitializeAccount3Instruction,
  createInitializeInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createTransferInstruction,
  ExtensionType,
  getMintLen,
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  type TransactionInstruction,
} from '@solana/web3.js'
import { metaplexMetadataAddress } from '../findProgramAddress.ts'
import type { PoolType } from '../pools/poolTypes.ts'
import { METAPLEX_METADATA_PROGRAM, NATIVE_MINT, TOKEN_2022_PROGRAM } from '../programIds.ts'
import { SVM_DEFAULTS, type SvmChainName } from '../svmDefaults.ts'
import { encodeMetaplexMetadata, encodeMint, encodeTokenMetadataValue } from './encodeAccounts.ts'
import { plantAccount } from './plantAccount.ts'
import { expectPrices, plantPools, type WorldMint, type WorldPool } from './plantWorldPools.ts'
import { send } from './sendWorldTransaction.ts'

export type SvmWorld = {
  chain: SvmChainName
  usdcMint: string
  dexPrograms: Partial<Record<PoolType, string>>
  mints: WorldMint[]
  pools: WorldPool[]
  /** USD price per mint implied by the most liquid planted route (NATIVE_MINT for native). */
  expectedPrices: Map<string, { priceUsd: number; poolAddress: string; poolType: PoolType }>
  wallets: string[]
  /** The wallet with the most transactions (paging tests). */
  busyWallet: string
  /** A transaction that landed and failed. */
  failedSignature: string
}

/**
 * A small, real world on a Surfpool node: mints of both token programs created by their
 * programs (one with the Token-2022 metadata extension, one whose metadata pointer names a
 * separate account, one with a planted Metaplex metadata account), USDC and wrapped native
 * mints planted at their mainnet addresses, pools in the Raydium/Orca layouts planted with
 * known reserves or prices, wallets funded and trading by real transactions (one with two
 * accounts of one mint, one failed transaction).
 */
export async function buildSvmWorld({
  chain,
  rpcUrl,
  wsUrl,
  payerSecretKey,
  dexPrograms = SVM_DEFAULTS[chain].dexPrograms,
  usdcMint = SVM_DEFAULTS[chain].usdcMint,
}: {
  chain: SvmChainName
  rpcUrl: string
  wsUrl: string
  payerSecretKey: Uint8Array
  dexPrograms?: Partial<Record<PoolType, string>>
  usdcMint?: string
}): Promise<SvmWorld> {
  const connection = new Connection(rpcUrl, { commitment: 'confirmed', wsEndpoint: wsUrl })
  const payer = Keypair.fromSecretKey(payerSecretKey)
  const mints: WorldMint[] = []
  const tx = (instructions: TransactionInstruction[], signers: Keypair[] = []) =>
    send(connection, payer, instructions, signers)
  const rent = (space: number) => connection.getMinimumBalanceForRentExemption(space)

  /** A mint created by its token program; `pointer` adds a MetadataPointer extension. */
  async function createMint({
    decimals,
    programId,
    pointer,
    extraSpace = 0,
  }: {
    decimals: number
    programId: PublicKey
    pointer?: (mint: PublicKey) => PublicKey
    extraSpace?: number
  }): Promise<PublicKey> {
    const mint = Keypair.generate()
    const space = pointer ? getMintLen([ExtensionType.MetadataPointer]) : MINT_SIZE
    await tx(
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint.publicKey,
          space,
          // room for metadata the program appends later (it reallocates, we pre-fund)
          lamports: await rent(space + extraSpace),
          programId,
        }),
        ...(pointer
          ? [
              createInitializeMetadataPointerInstruction(
                mint.publicKey,
                payer.publicKey,
                pointer(mint.publicKey),
                programId,
              ),
            ]
          : []),
        createInitializeMint2Instruction(
          mint.publicKey,
          decimals,
          payer.publicKey,
          null,
          programId,
        ),
      ],
      [mint],
    )
    return mint.publicKey
  }

  /** A token account (not an associated one) of `owner`, created by the token program. */
  async function createTokenAccount(mint: PublicKey, owner: Keypair, programId = TOKEN_PROGRAM_ID) {
    const account = Keypair.generate()
    await tx(
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: account.publicKey,
          space: ACCOUNT_SIZE,
          lamports: await rent(ACCOUNT_SIZE),
          programId,
        }),
        createInitializeAccount3Instruction(account.publicKey, mint, owner.publicKey, programId),
      ],
      [account],
    )
    return account.publicKey
  }

  const mintTo = (mint: PublicKey, to: PublicKey, amount: bigint, programId = TOKEN_PROGRAM_ID) =>
    tx([createMintToInstruction(mint, to, payer.publicKey, amount, [], programId)])

  // USDC and the wrapped native mint at their real addresses; the payer may mint USDC.
  await plantAccount({
    rpcUrl,
    address: usdcMint,
    owner: TOKEN_PROGRAM_ID.toBase58(),
    data: encodeMint({ mintAuthority: payer.publicKey.toBase58(), supply: 0n, decimals: 6 }),
  })
  mints.push({
    address: usdcMint,
    label: 'USDC',
    decimals: 6,
    programId: TOKEN_PROGRAM_ID.toBase58(),
  })
  await plantAccount({
    rpcUrl,
    address: NATIVE_MINT,
    owner: TOKEN_PROGRAM_ID.toBase58(),
    data: encodeMint({ mintAuthority: null, supply: 0n, decimals: 9 }),
  })

  // SPL Token mint with a Metaplex metadata account.
  const splMint = await createMint({ decimals: 6, programId: TOKEN_PROGRAM_ID })
  const metaplex = {
    name: 'Demo Tokenkeg',
    symbol: 'DTK',
    uri: 'https://example.org/dtk.json',
    metadataAddress: metaplexMetadataAddress(splMint.toBase58()),
  }
  await plantAccount({
    rpcUrl,
    address: metaplex.metadataAddress,
    owner: METAPLEX_METADATA_PROGRAM,
    data: encodeMetaplexMetadata({
      updateAuthority: payer.publicKey.toBase58(),
      mint: splMint.toBase58(),
      ...metaplex,
    }),
  })
  mints.push({
    address: splMint.toBase58(),
    label: 'DTK',
    decimals: 6,
    programId: TOKEN_PROGRAM_ID.toBase58(),
    metadata: metaplex,
  })

  // Token-2022 mint whose metadata pointer names itself, with the metadata extension.
  const extMetadata = {
    name: 'Demo Extension',
    symbol: 'DEXT',
    uri: 'https://example.org/dext.json',
  }
  const extMint = await createMint({
    decimals: 9,
    programId: TOKEN_2022_PROGRAM_ID,
    pointer: (mint) => mint,
    extraSpace: 512,
  })
  await tx([
    createInitializeInstruction({
      programId: TOKEN_2022_PROGRAM_ID,
      metadata: extMint,
      updateAuthority: payer.publicKey,
      mint: extMint,
      mintAuthority: payer.publicKey,
      ...extMetadata,
    }),
  ])
  mints.push({
    address: extMint.toBase58(),
    label: 'DEXT',
    decimals: 9,
    programId: TOKEN_2022_PROGRAM,
    metadata: extMetadata,
  })

  // Token-2022 mint whose metadata pointer names a separate metadata account.
  const pointed = Keypair.generate().publicKey
  const pointerMint = await createMint({
    decimals: 6,
    programId: TOKEN_2022_PROGRAM_ID,
    pointer: () => pointed,
  })
  const pointerMetadata = {
    name: 'Demo Pointer',
    symbol: 'DPTR',
    uri: 'https://example.org/dptr.json',
  }
  const value = encodeTokenMetadataValue({
    updateAuthority: payer.publicKey.toBase58(),
    mint: pointerMint.toBase58(),
    ...pointerMetadata,
  })
  const length = Buffer.alloc(4)
  length.writeUInt32LE(value.length)
  await plantAccount({
    rpcUrl,
    address: pointed.toBase58(),
    // a program implementing the token-metadata interface (any program id will do)
    owner: Keypair.generate().publicKey.toBase58(),
    data: Buffer.concat([interfaceDiscriminator(), length, value]),
  })
  mints.push({
    address: pointerMint.toBase58(),
    label: 'DPTR',
    decimals: 6,
    programId: TOKEN_2022_PROGRAM,
    metadata: pointerMetadata,
  })

  // Token-2022 mint without metadata, never priced.
  const plainMint = await createMint({ decimals: 2, programId: TOKEN_2022_PROGRAM_ID })
  mints.push({
    address: plainMint.toBase58(),
    label: 'PLAIN',
    decimals: 2,
    programId: TOKEN_2022_PROGRAM,
  })

  const pools = await plantPools({ rpcUrl, chain, dexPrograms, usdcMint, mints })
  const expectedPrices = expectPrices({ pools, usdcMint })

  // Wallets, funded and trading by real transactions.
  const [w1, w2, w3] = [Keypair.generate(), Keypair.generate(), Keypair.generate()]
  for (const [wallet, sol] of [
    [w1, 5],
    [w2, 3],
    [w3, 1.5],
  ] as const) {
    await send(connection, payer, [
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: wallet.publicKey,
        lamports: Math.round(sol * LAMPORTS_PER_SOL),
      }),
    ])
  }
  const account = createTokenAccount
  const usdc = new PublicKey(usdcMint)
  const w1Usdc = await account(usdc, w1)
  const w1Dtk = await account(splMint, w1)
  const w2DtkA = await account(splMint, w2)
  const w2DtkB = await account(splMint, w2)
  const w2Dext = await account(extMint, w2, TOKEN_2022_PROGRAM_ID)
  const w3Dptr = await account(pointerMint, w3, TOKEN_2022_PROGRAM_ID)
  const w1Plain = await account(plainMint, w1, TOKEN_2022_PROGRAM_ID)
  const w3Usdc = await account(usdc, w3)
  await mintTo(usdc, w1Usdc, 1_250_500_000n)
  await mintTo(splMint, w1Dtk, 900_000_000n)
  await mintTo(splMint, w2DtkA, 10_000_000n)
  await mintTo(splMint, w2DtkB, 2_500_000n)
  await mintTo(extMint, w2Dext, 42_000_000_000n, TOKEN_2022_PROGRAM_ID)
  await mintTo(pointerMint, w3Dptr, 7_000_000n, TOKEN_2022_PROGRAM_ID)
  await mintTo(plainMint, w1Plain, 12_345n, TOKEN_2022_PROGRAM_ID)

  // Trades of the busy wallet (w1): token transfers and native transfers.
  await send(connection, w1, [createTransferInstruction(w1Dtk, w2DtkA, w1.publicKey, 25_000_000n)])
  await send(connection, w1, [createTransferInstruction(w1Usdc, w3Usdc, w1.publicKey, 500_000n)])
  for (const lamports of [1_000_000, 2_000_000, 3_000_000]) {
    await send(connection, w1, [
      SystemProgram.transfer({ fromPubkey: w1.publicKey, toPubkey: w3.publicKey, lamports }),
    ])
  }
  // A failed transaction: w1 sends more USDC than it holds (lands, fails, pays its fee).
  const failedSignature = await send(
    connection,
    w1,
    [createTransferInstruction(w1Usdc, w1Usdc, w1.publicKey, 10n ** 15n)],
    [],
    { expectFailure: true },
  )

  return {
    chain,
    usdcMint,
    dexPrograms,
    mints,
    pools,
    expectedPrices,
    wallets: [w1, w2, w3].map((w) => w.publicKey.toBase58()),
    busyWallet: w1.publicKey.toBase58(),
    failedSignature,
  }
}

function interfaceDiscriminator(): Buffer {
  return createHash('sha256')
    .update('spl_token_metadata_interface:token_metadata')
    .digest()
    .subarray(0, 8)
}
