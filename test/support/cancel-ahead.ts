/**
 * A buyer who cancels an EIP-3009 authorization while our transfer of it is in flight, on the embedded runtime's
 * local chain: `withTransferPending` pauses automine around a purchase whose settlement broadcasts and gives up
 * waiting at once (deadline now), so our transfer sits in the mempool; `cancelAheadOfTransfer` then submits the
 * buyer's signed `cancelAuthorization` with a far higher tip and mines one block, in which the cancel comes first and
 * our transfer reverts ("authorization is used or canceled"). It checks that this is what happened, so a test built
 * on it cannot pass on a setup that did not cancel ahead.
 */
import { createPublicClient, createWalletClient, http, parseSignature, type Hex, type PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { EmbeddedRuntime } from '../../lib/local/runtime.js';

const cancelAbi = [
  {
    type: 'function',
    name: 'cancelAuthorization',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
      { name: 'v', type: 'uint8' },
      { name: 'r', type: 'bytes32' },
      { name: 's', type: 'bytes32' },
    ],
    outputs: [],
  },
  { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
] as const;

type Runtime = Pick<EmbeddedRuntime, 'info' | 'chain'>;

function clients({ info }: Runtime) {
  const reader = createPublicClient({ transport: http(info.rpcUrl, { retryCount: 0 }) });
  const rpc = (method: string, params: unknown[] = []) => reader.request({ method, params } as never) as Promise<unknown>;
  return { reader, rpc };
}

/** Runs `buy` with automine paused: a transfer it broadcasts stays pending until a block is mined by hand. */
export async function withTransferPending<T>(runtime: Runtime, buy: () => Promise<T>): Promise<T> {
  const { rpc } = clients(runtime);
  await rpc('evm_setAutomine', [false]);
  try {
    return await buy();
  } catch (error) {
    await rpc('evm_setAutomine', [true]);
    throw error;
  }
}

/**
 * With a transfer of `buyer`'s authorization `nonce` pending (automine paused by withTransferPending): the buyer
 * cancels that authorization, the cancel is mined first in the next block and our transfer reverts. Returns both
 * transactions. Automine is back on afterwards.
 */
export async function cancelAheadOfTransfer(runtime: Runtime, buyer: PrivateKeyAccount, nonce: Hex): Promise<{ cancel: Hex; transfer: Hex }> {
  const { reader, rpc } = clients(runtime);
  const { info, chain } = runtime;
  try {
    const pending = (await rpc('eth_getBlockByNumber', ['pending', false])) as { transactions: Hex[] };
    if (pending.transactions.length !== 1) throw new Error(`expected our transfer alone in the mempool, found ${pending.transactions.length}`);
    const [transfer] = pending.transactions;

    // The buyer signs the cancel (gasless, like its payment); anyone may submit it: a fresh account with gas does.
    const name = await reader.readContract({ address: chain.usdcAddress, abi: cancelAbi, functionName: 'name' });
    const signature = await buyer.signTypedData({
      domain: { name, version: '2', chainId: info.chainId, verifyingContract: chain.usdcAddress },
      types: { CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }] },
      primaryType: 'CancelAuthorization',
      message: { authorizer: buyer.address, nonce },
    });
    const { v, r, s, yParity } = parseSignature(signature);
    const submitter = privateKeyToAccount(generatePrivateKey());
    await rpc('hardhat_setBalance', [submitter.address, '0xde0b6b3a7640000']);
    const wallet = createWalletClient({ account: submitter, transport: http(info.rpcUrl, { retryCount: 0 }) });
    const chainDef = { id: info.chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [info.rpcUrl] } } } as const;
    const cancel = await wallet.writeContract({
      chain: chainDef,
      address: chain.usdcAddress,
      abi: cancelAbi,
      functionName: 'cancelAuthorization',
      args: [buyer.address, nonce, Number(v ?? BigInt(yParity + 27)), r, s],
      gas: 200_000n,
      maxPriorityFeePerGas: 50_000_000_000n,
      maxFeePerGas: 100_000_000_000n,
    });
    await rpc('evm_mine');

    const [cancelled, ours] = await Promise.all([reader.getTransactionReceipt({ hash: cancel }), reader.getTransactionReceipt({ hash: transfer })]);
    if (cancelled.status !== 'success') throw new Error('the cancel did not land');
    if (ours.status !== 'reverted') throw new Error('our transfer did not revert');
    if (cancelled.blockNumber !== ours.blockNumber || cancelled.transactionIndex > ours.transactionIndex) {
      throw new Error('the cancel was not mined ahead of our transfer in one block');
    }
    return { cancel, transfer };
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
}
