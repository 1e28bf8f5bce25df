// Every view answers with the static type of the schema its route answers with (issue "Shape of the
// house, round three"): a view whose annotation drifts from its schema, or a hand-written copy of a
// schema's shape that differs from it, fails `npm run typecheck` here (tsconfig.json includes
// test/). The view functions check their bodies against the schema; this file checks they still
// say so. At run time expectTypeOf does nothing.
import type { Static } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AdminEventType,
  OutcomeFilter,
  PaymentStatus,
  UserEventType,
} from '../../src/lib/allowed-values.js';
import type { AuditEntrySchema } from '../../src/modules/admin/schemas.js';
import type { AdminService } from '../../src/modules/admin/service.js';
import type { DeviceSchema } from '../../src/modules/devices/schemas.js';
import { deviceView } from '../../src/modules/devices/service.js';
import type { AdminEventSchema, UserEventSchema } from '../../src/modules/events/schemas.js';
import { type EventService, eventView } from '../../src/modules/events/service.js';
import type { FixtureSchema } from '../../src/modules/fixtures/schemas.js';
import type { FixtureService } from '../../src/modules/fixtures/service.js';
import type {
  AdminPronosticTypeSchema,
  CreatedPronostic,
  DetailedPronostic,
  ListedPronostic,
  ListQuery,
  PronosticTypeSchema,
} from '../../src/modules/pronostics/schemas.js';
import { detailView, listedView, type PronosticService } from '../../src/modules/pronostics/service.js';
import type { AdminTicketSchema, TicketSchema } from '../../src/modules/support/schemas.js';
import type { SupportService } from '../../src/modules/support/service.js';
import type { AdjustCreditsData, AdminUserSchema, FullUserSchema } from '../../src/modules/users/schemas.js';
import type { UserService } from '../../src/modules/users/service.js';
import { adminUserView, fullUserView } from '../../src/modules/users/views.js';
import type { PaymentSchema } from '../../src/money/checkout/schemas.js';
import type { PaymentService } from '../../src/money/checkout/service.js';
import type { FlagSchema } from '../../src/money/flags/schemas.js';
import type { FlagService } from '../../src/money/flags/service.js';
import type { OperationSchema } from '../../src/money/ledger/schemas.js';
import type { WalletService } from '../../src/money/ledger/service.js';
import type { AdminPackSchema, PackSchema } from '../../src/money/packs/schemas.js';
import type { PackService } from '../../src/money/packs/service.js';

/** What a service method's promise resolves to. */
type Answer<F> = F extends (...args: never[]) => Promise<infer T> ? T : never;

describe('the views', () => {
  it('are typed by their schemas (checked by the type-check)', () => {
    // Exported views.
    expectTypeOf(fullUserView).returns.toEqualTypeOf<Static<typeof FullUserSchema>>();
    expectTypeOf(adminUserView).returns.toEqualTypeOf<Static<typeof AdminUserSchema>>();
    expectTypeOf(listedView).returns.toEqualTypeOf<Static<typeof ListedPronostic>>();
    expectTypeOf(detailView).returns.toEqualTypeOf<Static<typeof DetailedPronostic>>();
    expectTypeOf(deviceView).returns.toEqualTypeOf<Static<typeof DeviceSchema>>();
    expectTypeOf(eventView).returns.toEqualTypeOf<
      Static<typeof UserEventSchema> | Static<typeof AdminEventSchema>
    >();

    // The module's own views, through the service methods that answer with them.
    expectTypeOf<Answer<PackService['listActive']>>().toEqualTypeOf<Static<typeof PackSchema>[]>();
    expectTypeOf<Answer<PackService['create']>>().toEqualTypeOf<Static<typeof AdminPackSchema>>();
    expectTypeOf<Answer<WalletService['latestOwn']>>().toEqualTypeOf<Static<typeof OperationSchema>[]>();
    expectTypeOf<Answer<FixtureService['get']>>().toEqualTypeOf<Static<typeof FixtureSchema>>();
    expectTypeOf<Answer<PaymentService['getOwn']>>().toEqualTypeOf<Static<typeof PaymentSchema>>();
    expectTypeOf<Answer<SupportService['getOwn']>>().toEqualTypeOf<Static<typeof TicketSchema>>();
    expectTypeOf<Answer<SupportService['getAny']>>().toEqualTypeOf<Static<typeof AdminTicketSchema>>();
    expectTypeOf<Answer<UserService['adjustCredits']>>().toEqualTypeOf<Static<typeof AdjustCreditsData>>();
    expectTypeOf<Answer<FlagService['list']>['flags']>().toEqualTypeOf<Static<typeof FlagSchema>[]>();
    expectTypeOf<Answer<AdminService['listAudit']>['entries']>().toEqualTypeOf<
      Static<typeof AuditEntrySchema>[]
    >();
    expectTypeOf<Answer<PronosticService['listTypes']>>().toEqualTypeOf<
      Static<typeof PronosticTypeSchema>[]
    >();
    expectTypeOf<Answer<PronosticService['listAllTypes']>>().toEqualTypeOf<
      Static<typeof AdminPronosticTypeSchema>[]
    >();
    expectTypeOf<Answer<PronosticService['create']>['pronostic']>().toEqualTypeOf<
      Static<typeof CreatedPronostic>
    >();
    expectTypeOf<Answer<EventService['history']>['events']>().toEqualTypeOf<
      (Static<typeof UserEventSchema> | Static<typeof AdminEventSchema>)[]
    >();
  });

  it('take their allowed values from lib/allowed-values.ts', () => {
    expectTypeOf<Static<typeof PaymentSchema>['status']>().toEqualTypeOf<PaymentStatus>();
    expectTypeOf<Static<typeof UserEventSchema>['type']>().toEqualTypeOf<UserEventType>();
    expectTypeOf<Static<typeof AdminEventSchema>['type']>().toEqualTypeOf<AdminEventType>();
    expectTypeOf<Static<typeof ListQuery>['outcome']>().toEqualTypeOf<OutcomeFilter | undefined>();
  });

  it('are told apart (the checks above are not vacuous)', () => {
    // @ts-expect-error: the back office's account is not the user's own profile
    expectTypeOf(adminUserView).returns.toEqualTypeOf<Static<typeof FullUserSchema>>();
    type Listed = Static<typeof ListedPronostic>;
    // @ts-expect-error: a listed pronostic has its ai_model, a created one does not
    expectTypeOf<Answer<PronosticService['create']>['pronostic']>().toEqualTypeOf<Listed>();
  });
});
