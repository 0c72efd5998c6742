import { HttpRequestError, InvalidInputRpcError, LimitExceededRpcError, RpcRequestError, TimeoutError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifySendFailure } from '../../../lambdas/payments/send-rejection.js';

const url = 'http://node.test';
const rpcError = (code: number, message: string) => new RpcRequestError({ body: { method: 'eth_sendRawTransaction' }, error: { code, message }, url });

describe('Settlement: what a failed broadcast means (docs/decisions/0005, "Rejections")', () => {
  it('a refusal the node states is definitive, by class', () => {
    expect(classifySendFailure(new InvalidInputRpcError(rpcError(-32000, 'nonce too low: next nonce 7, tx nonce 6')))).toEqual({ kind: 'rejected', rejection: 'nonce' });
    expect(classifySendFailure(rpcError(-32602, 'Nonce too low. Expected nonce to be 3 but got 2.'))).toEqual({ kind: 'rejected', rejection: 'nonce' });
    expect(classifySendFailure(rpcError(-32000, 'replacement transaction underpriced'))).toEqual({ kind: 'rejected', rejection: 'nonce' });
    expect(classifySendFailure(rpcError(-32000, 'insufficient funds for gas * price + value'))).toEqual({ kind: 'rejected', rejection: 'funds' });
    expect(classifySendFailure(rpcError(-32000, 'transaction underpriced'))).toEqual({ kind: 'rejected', rejection: 'invalid' });
    expect(classifySendFailure(rpcError(-32000, 'invalid sender'))).toEqual({ kind: 'rejected', rejection: 'invalid' });
    expect(classifySendFailure(new HttpRequestError({ status: 429, url, body: {}, details: 'Too Many Requests' }))).toEqual({ kind: 'rejected', rejection: 'rate-limited' });
    expect(classifySendFailure(new LimitExceededRpcError(rpcError(-32005, 'limit exceeded')))).toEqual({ kind: 'rejected', rejection: 'rate-limited' });
  });

  it('"already known" means the node has it: sent', () => {
    expect(classifySendFailure(rpcError(-32000, 'already known'))).toEqual({ kind: 'known' });
  });

  it('a time-out, an abort, a reset, a 5xx or anything unrecognised is ambiguous (maybe sent)', () => {
    for (const error of [
      new TimeoutError({ body: {}, url }),
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      new HttpRequestError({ status: 502, url, body: {}, details: 'nonce too low' }),
      rpcError(-32603, 'internal error'),
    ]) {
      expect(classifySendFailure(error)).toEqual({ kind: 'ambiguous' });
    }
  });
});
