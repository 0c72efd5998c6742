/**
 * The x402 v2 payment payload's schema (what a PAYMENT-SIGNATURE header must decode to), apart from the wire types
 * (types.ts) so a module that only needs the types or constants, such as a document, carries no schema library.
 */
import * as z from '../shared/zod.js';

const hexString = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/));
const hexOfLength = (length: number) => z.string().check(z.regex(/^0x[0-9a-fA-F]*$/), z.length(length));
const uintString = z.pipe(
  z.union([z.string().check(z.regex(/^\d+$/)), z.number().check(z.int(), z.nonnegative())]),
  z.transform((v: string | number) => BigInt(v)),
);

/** The payload a client base64-encodes into PAYMENT-SIGNATURE. Unknown members are tolerated. */
export const paymentPayloadSchema = z.object({
  x402Version: z.literal(2),
  resource: z.optional(z.looseObject({ url: z.string() })),
  accepted: z.looseObject({
    scheme: z.string(),
    network: z.string(),
    asset: z.string(),
    payTo: z.string(),
    amount: z.optional(z.string()),
    maxAmountRequired: z.optional(z.string()),
  }),
  /** What the client echoed of the 402's extensions, and added (the `payment-identifier` id). */
  extensions: z.optional(z.looseObject({})),
  payload: z.object({
    signature: hexString,
    authorization: z.object({
      from: hexOfLength(42),
      to: hexOfLength(42),
      value: uintString,
      validAfter: uintString,
      validBefore: uintString,
      nonce: hexOfLength(66),
    }),
  }),
});
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>;
