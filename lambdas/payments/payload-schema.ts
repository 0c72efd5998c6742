/**
 * The x402 v2 payment payload's schema (what a PAYMENT-SIGNATURE header must decode to), apart from the wire types
 * (types.ts) so a module that only needs the types or constants, such as a document, carries no schema library.
 */
import { z } from 'zod';

const hexString = z.string().regex(/^0x[0-9a-fA-F]*$/);
const uintString = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform((v) => BigInt(v));

/** The payload a client base64-encodes into PAYMENT-SIGNATURE. Unknown members are tolerated. */
export const paymentPayloadSchema = z.object({
  x402Version: z.literal(2),
  resource: z.object({ url: z.string() }).passthrough().optional(),
  accepted: z
    .object({
      scheme: z.string(),
      network: z.string(),
      asset: z.string(),
      payTo: z.string(),
      amount: z.string().optional(),
      maxAmountRequired: z.string().optional(),
    })
    .passthrough(),
  payload: z.object({
    signature: hexString,
    authorization: z.object({
      from: hexString.length(42),
      to: hexString.length(42),
      value: uintString,
      validAfter: uintString,
      validBefore: uintString,
      nonce: hexString.length(66),
    }),
  }),
});
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>;
