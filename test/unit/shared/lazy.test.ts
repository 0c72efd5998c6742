import { describe, expect, it } from 'vitest';
import { lazyRetry } from '../../../lambdas/shared/lazy.js';

describe('lazyRetry: a promise made once and shared, made again after a failure', () => {
  it('makes it on the first call and shares it with every later one, concurrent or not', async () => {
    let made = 0;
    const get = lazyRetry(async () => ++made);
    expect(await Promise.all([get(), get()])).toEqual([1, 1]);
    expect(await get()).toBe(1);
    expect(made).toBe(1);
  });

  it('forgets a rejected one: the callers that shared it fail, the next call makes a new one', async () => {
    let made = 0;
    const get = lazyRetry(async () => {
      made += 1;
      if (made === 1) throw new Error('no SDK');
      return made;
    });
    await expect(Promise.all([get(), get()])).rejects.toThrow('no SDK');
    expect(await get()).toBe(2);
    expect(await get()).toBe(2);
  });
});
