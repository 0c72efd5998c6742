/**
 * A vendor record exported as JSON by a payables platform: its name keys name the vendor (a nested contact's "name"
 * does not), its payee keys ("payeeName", "nameOnAccount", "accountHolderName", "beneficiary_name") name the payee,
 * compared as any payee is (punctuation, case and legal-form words aside), and a question object's answer
 * ('{ "q": "…advance payment…?", "a": "No" }') answers it.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const record = (payment: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      name: 'Granite State Millwork, L.L.C.',
      tradeName: 'GS Millwork',
      address: { line1: '88 Canal Street', city: 'Manchester', state: 'NH', zip: '03101' },
      contacts: [{ role: 'Owner', name: 'Peter Oduya', email: 'peter@gsmillwork.com' }],
      taxId: '02-5566778',
      formed: '2009-05-14',
      payment,
      terms: 'Net 30',
      ...extra,
    },
    null,
    2,
  );
const areas = (profile: string) => vendorRiskEngine.analyse({ vendorProfile: profile }).flags.map((f) => f.split(':')[0]);

describe('a JSON vendor record', () => {
  it.each([
    ['payee without the punctuation', { payeeName: 'Granite State Millwork LLC' }],
    ['account name in capitals', { nameOnAccount: 'GRANITE STATE MILLWORK LLC' }],
    ['snake-cased holder key', { account_holder_name: 'Granite State Millwork' }],
  ])('%s → clean', (_name, payment) => {
    expect(areas(record(payment))).toEqual([]);
  });

  it.each([
    ['an account in the owner\'s own name (a nested contact names no vendor)', { accountHolderName: 'Peter Oduya' }],
    ['a payee that is another company', { payeeName: 'Seacoast Lumber Holdings Inc' }],
  ])('%s → payment redirection', (_name, payment) => {
    expect(areas(record(payment))).toEqual(['payment redirection']);
  });

  it('a question object answered No demands nothing; answered Yes it does', () => {
    const q = (a: string) => ({ screening: [{ q: 'Do you require advance payment or a deposit?', a }] });
    expect(areas(record({ payeeName: 'Granite State Millwork LLC' }, q('No')))).toEqual([]);
    expect(areas(record({ payeeName: 'Granite State Millwork LLC' }, q('Yes, 50%')))).toEqual(['upfront payment demand']);
  });
});
