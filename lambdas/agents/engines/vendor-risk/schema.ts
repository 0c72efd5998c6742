import * as z from '../../../shared/zod.js';

/** Body `input` of POST /api/agents/vendor-risk-read-q0jjq/run: one pasted vendor profile, free text. */
export const inputSchema = z.strictObject({
  vendorProfile: z.string().check(z.minLength(1)),
});

export const GRADES = ['LOW RISK', 'MEDIUM RISK', 'HIGH RISK'] as const;
export const DECISIONS = ['onboard', 'hold', 'decline'] as const;

export const resultSchema = z.strictObject({
  grade: z.enum(GRADES),
  /** One string per red flag, "<category>: <detail>", in the category order of RULES.md. */
  flags: z.array(z.string()),
  decision: z.enum(DECISIONS),
  /** Documents still needed before the vendor can be onboarded, derived from the flags, without duplicates. */
  collect: z.array(z.string()),
  note: z.string(),
});

export type VendorRiskInput = z.infer<typeof inputSchema>;
export type VendorRiskResult = z.infer<typeof resultSchema>;
