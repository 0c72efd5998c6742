/**
 * A Japanese hotel-cap table whose columns stand one space apart ("東京23区・横浜市 13,000円" / "その他の地域 9,500円") under
 * its lead ("1泊当たりの上限額は次のとおりとする"): a hotel in one of Tokyo's wards is held to the first row, one elsewhere to
 * the other.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  '株式会社みなと電装　国内出張旅費規程',
  '第1条（宿泊料）',
  '宿泊料は実費を支給する。ただし、1泊当たりの上限額は次のとおりとする。',
  '　東京23区・横浜市　13,000円',
  '　その他の地域　9,500円',
  '上限額を超える部分は本人負担とする。',
  '第2条（領収書）',
  'すべての支出について領収書を添付する。',
].join('\n');

const claim = (line: string) => ['日付,科目,内容,金額,領収書', `2025/03/04,宿泊費,${line},"12,400",有`].join('\n');

describe('expense-policy: a Japanese hotel-cap table', () => {
  it('pays a hotel in a Tokyo ward under the first row', () => {
    expect(run(claim('ホテル 港区 1泊'), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 12400 });
  });

  it('holds a hotel elsewhere to the other row', () => {
    expect(run(claim('ホテル 金沢市 1泊'), POLICY)).toMatchObject({ verdict: 'flag', reimbursable_amount: 9500 });
  });
});
