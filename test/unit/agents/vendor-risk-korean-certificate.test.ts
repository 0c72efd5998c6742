/**
 * A Korean supplier's tax number as its papers print it (RULES.md rule 3): the 사업자등록증 the tax office issues
 * prints the business registration number (000-00-00000, the Korean VAT number) under "등록번호", its labels set
 * letter-spaced ("등 록 번 호"), and a National Tax Service status look-up names the same number. The corporate
 * registry number (법인등록번호, 000000-0000000) is no tax number. Documents written for these tests.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const run = (...lines: string[]) => vendorRiskEngine.analyse({ vendorProfile: lines.join('\n') });
const areas = (...lines: string[]) => [...new Set(run(...lines).flags.map((f) => f.split(':')[0]))];

/** An established Busan supplier with a company domain, a street address and ordinary terms; each test adds its lines. */
const BASE = [
  'Supplier: Haeun Marine Fittings Co., Ltd. (주식회사 해운마린)',
  'Country: Republic of Korea',
  'Address: 부산광역시 강서구 녹산산단321로 24 / 24, Noksansandan 321-ro, Gangseo-gu, Busan 46753',
  'Website: www.haeunmarine.co.kr · sales@haeunmarine.co.kr',
  'Founded: 1996',
  'Terms: 45 days net',
];

describe("the certificate's registration number", () => {
  it.each([
    ['"등록번호" on the certificate text', ['사업자등록증', '( 법인사업자 )', '등록번호 : 617-81-20493', '법인명(단체명) : 주식회사 해운마린']],
    ['letter-spaced labels', ['사 업 자 등 록 증', '등 록 번 호 :  617-81-20493', '상         호 : 주식회사 해운마린']],
    ['"사업자번호" in a portal field', ['사업자번호    617-81-20493']],
    ['a letter-spaced full label', ['사 업 자 등 록 번 호 : 617-81-20493']],
    ['the NTS status look-up only', ['Screening: Korea NTS 사업자 상태조회 for 617-81-20493 - 계속사업자 (active), 일반과세자']],
    ['a hometax check in English', ['hometax status check of 617-81-20493: continuing business, general VAT taxpayer']],
  ])('%s → a tax number, not a gap', (_name, lines) => {
    expect(areas(...BASE, ...lines)).toEqual([]);
  });

  it.each([
    ['the corporate registry number alone', ['법인등록번호 : 180111-0241795']],
    ['a 3-2-5 number under no label', ['Order ref 617-81-20493']],
    ['the certificate named, its number left out', ['사업자등록증: to follow', '등록번호 :']],
  ])('%s → still no tax number', (_name, lines) => {
    expect(areas(...BASE, ...lines)).toEqual(['missing tax id']);
  });
});
