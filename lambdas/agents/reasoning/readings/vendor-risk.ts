/** The vendor-risk reading the model is asked for (see ../readings.ts): its schema, its grounding claims and sums, its rendering. */
import { SOURCE, array, number, object, string } from '../schema.js';
import { at, type Reading } from '../reading.js';

interface Statement {
  label: string;
  value: string;
  sourceLine: number;
  quote: string;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

export const VENDOR_RISK: Reading = {
  shape: object({
    vendorProfile: object({
      statements: array(
        object({
          label: string('What the statement is about: Vendor, Tax ID, Address, Country, Incorporated, Owner, Bank account, Payment terms, Contact, Sanctions, Statement…', 1),
          value: string('What the profile says about it, in its own words (keep names, places, numbers and dates as written; keep a denial a denial).', 1),
          ...SOURCE,
        }),
        'Every statement of the profile about the vendor: identity, tax number, address, where it and its owners operate, age, bank and payment instructions, answers to questions.',
        1,
      ),
    }),
  }),
  fields: ['vendorProfile'],
  instructions: [
    'Read the vendor profile (a form, a questionnaire, an e-mail, key: value notes or a form export) into labelled statements, one per fact, each from the line it is written on.',
    'Keep what the profile says, including what it denies ("no operations in Iran" stays a denial) and how a question was answered (ticked boxes); do not grade the vendor.',
  ].join(' '),
  claims: ({ vendorProfile }: { vendorProfile: { statements: Statement[] } }) =>
    vendorProfile.statements.map((s, i) => ({ field: 'vendorProfile', at: at('vendorProfile', 'statements', i), sourceLine: s.sourceLine, quote: s.quote, texts: [s.label, s.value], names: [s.value] })),
  sums: () => [],
  render: ({ vendorProfile }: { vendorProfile: { statements: Statement[] } }) => ({
    vendorProfile: vendorProfile.statements.map((s) => `${oneLine(s.label).replace(/:/g, ' ')}: ${oneLine(s.value)}`).join('\n'),
  }),
  sourceOf: ({ vendorProfile }: { vendorProfile: { statements: Statement[] } }, field, line) => (field === 'vendorProfile' ? vendorProfile.statements[line - 1] : undefined),
};
