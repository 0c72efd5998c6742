/**
 * A US federal-contract travel policy in the GSA style (M&IE per diem, 75 % on travel days, furnished meals deducted
 * by the breakdown table, lodging and M&IE by location), shared by the expense-policy tests that read its tables.
 */
export const GSA_POLICY = [
  'Travel policy (federal contracts). Amounts in US dollars.',
  '4.1 M&IE is paid as a per diem; no meal receipts are required.',
  '4.2 First and last day of travel: 75% of the M&IE rate.',
  '4.3 When a meal is furnished to you by a host, deduct that meal\'s amount in the table below from that day\'s M&IE.',
  '',
  '  M&IE total | Breakfast | Lunch | Dinner | Incidentals',
  '  -----------+-----------+-------+--------+------------',
  '      $59    |    $13    |  $15  |  $26   |     $5',
  '      $79    |    $18    |  $20  |  $36   |     $5',
  '',
  'Rates by location',
  '  Location                        Max lodging   M&IE',
  '  Portland, OR (Multnomah)            $180      $79',
  '  Standard rate (all other locations)    $110      $59',
].join('\n');
