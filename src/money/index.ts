// The door to money: the only file of src/money/ that code outside it imports (the dependency rule
// `money-through-its-door`). It names what the rest of the code may use: the capability, built once
// by the container (`createMoney`); the ledger (`createLedger`: its type, `src/types/ledger.ts`, is
// named by every module that moves a balance, without depending on money); the port
// the affiliation implements (`CommissionPolicy`); the types of the parts others are handed and the
// query shape the back office reuses; and the route plugins buildApp registers (/api/user/wallet/*,
// /api/user/affiliation/withdraw*, /api/admin/{packs,withdrawals,flags}, /api/webhooks/payments/*).
// Everything else in src/money/ is money's own business.
export { default as withdrawalRoutes } from './cash-out/routes.js';
export { AdminWithdrawalSchema } from './cash-out/schemas.js';
export type { WithdrawalService } from './cash-out/withdrawals.js';
export { default as paymentRoutes } from './checkout/routes.js';
export type { PaymentService } from './checkout/service.js';
export type { Commission, CommissionPolicy } from './commissions.js';
export { default as flagRoutes } from './flags/routes.js';
export type { FlagService } from './flags/service.js';
export { createLedger } from './ledger/ledger.js';
export { default as walletRoutes } from './ledger/routes.js';
export { OperationsQuery } from './ledger/schemas.js';
export type { WalletService } from './ledger/service.js';
export { createMoney, type Money, type MoneyDeps } from './money.js';
export { default as packRoutes } from './packs/routes.js';
export { default as webhookRoutes } from './provider/routes.js';
export type { WebhookDispatch } from './provider/webhooks.js';
