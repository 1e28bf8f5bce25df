// The Pronostics API's typed client, whole: the core (`client.ts`: createPronosticsClient, dataOf,
// envelopeOf, ApiError, ResponseData), the event-stream follower (`events.ts`) and the sign-up
// challenge (`signup.ts`).
export {
  ApiError,
  createPronosticsClient,
  dataOf,
  envelopeOf,
  type PageMeta,
  type PronosticsClient,
  type PronosticsClientOptions,
  type ResponseData,
} from './client.js';
export {
  type AdminEvent,
  type EventFollower,
  EventStreamParser,
  type FollowEventsOptions,
  followAdminEvents,
  followEvents,
  retryDelay,
  type UserEvent,
} from './events.js';
export type { components, paths } from './schema.js';
export {
  type GenerateBody,
  proofFor,
  type RequestCodeOptions,
  requestSignInCode,
  solveSignupChallenge,
} from './signup.js';
