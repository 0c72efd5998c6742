/**
 * `GET /api/purchases`: a page's `nextCursor` is that wallet's only. Another wallet signed in with it is refused as
 * each surface refuses a query that does not validate, before any of it is read: the generation surface with the
 * spec's 422 (`detail` lists the issue, `loc` = ["query", "cursor"]), the agent studio with its 400 `invalid_request`
 * (`issues`). The owner, signed in afresh, reads the next page with it.
 */
import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fetchFrom, freshBuyer, payingFetch, runtime } from '../support/buyer.js';
import { signingFetch } from '../support/sign-in.js';

let sent = 0;
const nextIp = () => `127.0.33.${(sent++ % 250) + 1}`;
const JSON_TYPE = { 'Content-Type': 'application/json' };
const BANK_REC = 'bank-rec-discrepancy-finder-bw0tt';

const runBody = (amount: string) =>
  JSON.stringify({ input: { bankStatement: `Date,Description,Amount\n11/02/2026,Deposit,${amount}`, bookEntries: `Date,Memo,Debit,Credit\n2026-11-02,Deposit,${amount},` } });

/** Two purchases by one wallet on a surface, and the cursor of the first page of one. */
async function ownerCursor(base: string, buy: (pay: ReturnType<typeof payingFetch>, n: number) => Promise<Response>) {
  const { privateKey } = await freshBuyer();
  const pay = payingFetch(privateKey, nextIp());
  for (const n of [1, 2]) expect((await buy(pay, n)).status).toBeLessThan(300);
  const owner = privateKeyToAccount(privateKey);
  const first = await signingFetch(owner, fetchFrom(nextIp()))(`${base}/api/purchases?limit=1`);
  expect(first.status).toBe(200);
  const page = await first.json();
  expect(page.purchases).toHaveLength(1);
  expect(page.nextCursor).toEqual(expect.any(String));
  return { owner, cursor: page.nextCursor as string, first: page.purchases[0].id as string };
}

const stranger = () => signingFetch(privateKeyToAccount(generatePrivateKey()), fetchFrom(nextIp()));

describe("another wallet's purchases cursor is refused as the surface refuses an invalid query", () => {
  it('generation surface: 422 with detail[].loc = ["query", "cursor"]; the owner reads its next page with it', async () => {
    const { baseUrl } = runtime();
    const { owner, cursor, first } = await ownerCursor(baseUrl, (pay, n) =>
      pay(`${baseUrl}/agent/image`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ prompt: `a harbour at dusk, take ${n}` }) }),
    );
    const refused = await stranger()(`${baseUrl}/api/purchases?limit=1&cursor=${cursor}`);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ detail: [{ loc: ['query', 'cursor'], msg: "cursor is not one this wallet's purchases returned", type: 'invalid_cursor' }] });

    const next = await signingFetch(owner, fetchFrom(nextIp()))(`${baseUrl}/api/purchases?limit=1&cursor=${cursor}`);
    expect(next.status).toBe(200);
    const page = await next.json();
    expect(page.purchases).toHaveLength(1);
    expect(page.purchases[0].id).not.toBe(first);
  });

  it('agent studio: 400 invalid_request with issues[].loc = ["query", "cursor"]', async () => {
    const { agentsUrl } = runtime();
    const { cursor } = await ownerCursor(agentsUrl, (pay, n) =>
      pay(`${agentsUrl}/api/agents/${BANK_REC}/run`, { method: 'POST', headers: JSON_TYPE, body: runBody(`${n}00.00`) }),
    );
    const refused = await stranger()(`${agentsUrl}/api/purchases?limit=1&cursor=${cursor}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_request', issues: [{ loc: ['query', 'cursor'], type: 'invalid_cursor' }] });
  });
});
