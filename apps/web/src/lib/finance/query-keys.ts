/**
 * Query keys of the money screens outside orders: the company's receiving accounts, my remittance
 * notices and my withdrawal requests, all under one root.
 */
export const FINANCE_KEY = ['finance'] as const
export const COMPANY_BANKS_KEY = [...FINANCE_KEY, 'companyBanks'] as const
export const REMITTANCES_KEY = [...FINANCE_KEY, 'remittances'] as const
export const WITHDRAWALS_KEY = [...FINANCE_KEY, 'withdrawals'] as const
